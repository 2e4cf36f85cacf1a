// A run request's rounds, for the live endpoint and the CLI alike: each mode once per round, so that a
// slow spell of the machine falls on every mode alike and round i gives one pair per two modes. The
// order alternates — the modes forward in even rounds, reversed in odd ones — so no mode always runs
// first (measured: going second after the other mode's run is worth a few per cent). Between rounds it
// decides whether to go on: a fixed count runs its rounds; "until certain" stops at the first
// checkpoint where every mode's 95 % interval against the fastest excludes 1, or at the limit
// (trace/derive/paired-verdict.ts). Runs of a second or more are not repeated. Each run is stamped
// with its place in its round and the plan (trace run.round). A request comparing cluster variants
// (clusterCompare) runs each mode once per variant, back to back, the variants' order alternating with
// the rounds too; each variant is its own side of the verdicts (its runs carry cluster.keys / .split).
import { stopAfter } from '../../trace/derive/paired-verdict.ts';
import { againstFastest } from '../../trace/derive/run-pairs.ts';
import { REPEAT_BELOW_US, clusterVariants, plannedRounds, roundPlan, type ClusterVariant, type RunSpec } from '../../trace/format/run-request.ts';
import { RUN_MODES, type RunInfo, type RunMode, type TraceDocument } from '../../trace/format/trace-format.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { executeRun, type RunListener } from './run-executor.ts';

/** Why a request stopped repeating: certain at a checkpoint, its limit, its count, or a run of ≥ 1 s. */
export type RoundsStop = 'certain' | 'limit' | 'planned' | 'slow';

export interface RoundsOutcome {
  /** Rounds run (pairs, with two modes). */
  rounds: number;
  stop: RoundsStop;
  /** Every run, in the order they ran. */
  docs: TraceDocument[];
}

/** The modes of round `round` in the order they run: the request's modes in RUN_MODES order, reversed in odd rounds. */
export function roundOrder(modes: readonly RunMode[], round: number): RunMode[] {
  const forward = RUN_MODES.filter((mode) => modes.includes(mode));
  return round % 2 === 0 ? forward : forward.reverse();
}

/** The runs of round `round` in the order they run: each mode of roundOrder once per variant, the variants reversed in odd rounds. */
export function roundRuns(spec: Pick<RunSpec, 'modes' | 'clusterKeys' | 'clusterSplit' | 'clusterCompare'>, round: number): { mode: RunMode; variant: ClusterVariant }[] {
  return roundOrder(spec.modes, round).flatMap((mode) => {
    const variants = clusterVariants(spec, mode);
    return (round % 2 === 0 ? variants : variants.reverse()).map((variant) => ({ mode, variant }));
  });
}

const sideOf = (mode: RunMode, variant: ClusterVariant) => `${mode}|${variant.clusterKeys}|${variant.clusterSplit}`;

/** The run's header as sent and recorded: its round stamped in. */
const stamped = (run: RunInfo, round: NonNullable<RunInfo['round']>): RunInfo => ({ ...run, round });

/**
 * Runs the request's rounds. `listenerFor` gives each run its listener (the live feed); `onRound` hears
 * each finished round, `onRun` each run's document as it is recorded (so that a caller keeps the runs
 * finished before a cancel). Throws what executeRun throws (a cancel: RunCancelledError).
 */
export async function runRounds(
  session: RedisSession,
  spec: RunSpec,
  listenerFor: (mode: RunMode) => RunListener,
  signal?: AbortSignal,
  onRound?: (round: number) => void,
  onRun?: (doc: TraceDocument) => void,
): Promise<RoundsOutcome> {
  const plan = roundPlan(spec.repeats);
  const planned = plannedRounds(spec);
  const docs: TraceDocument[] = [];
  // Each compared side's runs: a mode, or a mode in one cluster variant.
  const bySide = new Map<string, TraceDocument[]>();
  for (let round = 0; ; round++) {
    let slowest = 0;
    for (const [position, { mode, variant }] of roundRuns(spec, round).entries()) {
      const stamp = { position, plan };
      const listener = listenerFor(mode);
      const run = await executeRun(session, mode, { ...spec, ...variant, repeat: round }, {
        ...listener,
        onStart: listener.onStart && ((header) => listener.onStart!({ ...header, run: stamped(header.run, stamp) })),
      }, signal);
      const doc = { ...run, run: stamped(run.run, stamp) };
      docs.push(doc);
      onRun?.(doc);
      const side = sideOf(mode, variant);
      bySide.set(side, [...(bySide.get(side) ?? []), doc]);
      slowest = Math.max(slowest, doc.totals.doneUs);
    }
    onRound?.(round + 1);
    if (slowest >= REPEAT_BELOW_US) return { rounds: round + 1, stop: round + 1 >= planned ? 'planned' : 'slow', docs };
    // A mode with no whole run (a client library's refusal on a cluster: nothing sent, nothing to time) has
    // nothing to be certain about: it does not hold the others back.
    const timed = [...bySide.values()].filter((runs) => runs.some((doc) => !doc.incomplete));
    const stop = stopAfter(round + 1, plan, planned, againstFastest(timed));
    if (stop) return { rounds: round + 1, stop, docs };
  }
}
