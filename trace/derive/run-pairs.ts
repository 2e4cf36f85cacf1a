// Compared runs as pairs: a request runs each mode once per round, so the repeats of two modes that share
// a round number (run.repeat) were measured a moment apart and form one pair. This reads the verdict
// between two groups of repeats (paired-verdict.ts) off their traces, and names the comparisons a
// request is judged by: every mode against the fastest one.
import type { TraceDocument } from '../format/trace-format.ts';
import { pairedVerdict, type PairedVerdict, type RoundPlan } from './paired-verdict.ts';

/** A run's time: t0 → last reply at the client socket, µs. */
export const runTimeUs = (doc: TraceDocument): number => doc.totals.durationUs;

/**
 * Per-pair ratios a ÷ b of the runs' times, in round order: repeat i of `a` with repeat i of `b`, rounds
 * one side lacks (a run cut short, a round not finished) left out. A run the screen holds only part
 * of (incomplete) pairs with nothing.
 */
export function pairRatios(a: readonly TraceDocument[], b: readonly TraceDocument[], time: (doc: TraceDocument) => number = runTimeUs): number[] {
  const byRound = new Map(b.filter((d) => !d.incomplete).map((d) => [d.run.repeat, d]));
  return a
    .filter((d) => !d.incomplete && byRound.has(d.run.repeat))
    .sort((x, y) => x.run.repeat - y.run.repeat)
    .map((d) => time(d) / time(byRound.get(d.run.repeat)!));
}

/** How the request that made these runs chose its rounds: "until certain" when any run says so; else (and for older traces) fixed. */
export function roundPlanOf(docs: readonly TraceDocument[]): RoundPlan {
  return docs.some((d) => d.run.round?.plan === 'until-certain') ? 'until-certain' : 'fixed';
}

/** The verdict between two groups of repeats: ratio a ÷ b with its 95 % interval. */
export function compareRepeats(a: readonly TraceDocument[], b: readonly TraceDocument[]): PairedVerdict {
  return pairedVerdict(pairRatios(a, b), roundPlanOf([...a, ...b]));
}

/** The index of the group whose median time is the lowest (ties: the first); -1 for none. */
export function fastestGroup(groups: readonly (readonly TraceDocument[])[]): number {
  let best = -1;
  let bestUs = Infinity;
  groups.forEach((g, i) => {
    const times = g.filter((d) => !d.incomplete).map(runTimeUs).sort((x, y) => x - y);
    if (times.length === 0) return;
    const median = times[Math.floor((times.length - 1) / 2)]!;
    if (median < bestUs) [best, bestUs] = [i, median];
  });
  return best;
}

/**
 * The comparisons a request with these groups of repeats is judged by, as per-pair ratios: each group's
 * time ÷ the fastest group's. Empty with fewer than two groups.
 */
export function againstFastest(groups: readonly (readonly TraceDocument[])[]): number[][] {
  const fastest = fastestGroup(groups);
  if (groups.length < 2 || fastest < 0) return [];
  return groups.flatMap((g, i) => (i === fastest ? [] : [pairRatios(g, groups[fastest]!)]));
}
