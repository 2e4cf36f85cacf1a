// The depth sweep's words and numbers: axis ticks, the progress line, the plan under the form (from
// the inputs only), the headline read off the measured points, and the provenance line. Pure, so it
// is unit-tested; every figure it prints comes from a measurement or from the user's own inputs.
import { REFERENCE_MIN_RUN_MS, sweepRoundTrips, sweepRunAt, sweepRunCount, type SweepDocument, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import { commandTakesValue } from '../../../trace/format/run-request.ts';
import type { ActiveSweep } from '../model/active-sweep.ts';
import type { DepthSpread, SweepSeries } from '../model/sweep-series.ts';
import { MIN_PAIRS_FOR_INTERVAL, pairedVerdict, type PairedVerdict } from '../../../trace/derive/paired-verdict.ts';
import { baselineOf } from '../model/sweep-series.ts';
import { formatCount, formatRate, formatRatio, formatUs, plural } from './number-format.ts';

const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/**
 * What Pipescope's ops/s at a depth measure: a run's operations ÷ totals.durationUs, which runs from t0
 * (the run calling the client for its first command) to the read that completed the last reply.
 */
export const SWEEP_RATE_SOURCE = 'client socket, operations ÷ (t0 → last reply)';

export function formatDepth(depth: number): string {
  return formatCount(depth);
}

/** Rate ticks: 500, 20k, 1.5M. */
export function formatRateTick(v: number): string {
  if (v === 0) return '0';
  if (v >= 1e6) return `${oneDecimal.format(v / 1e6)}M`;
  if (v >= 1e3) return `${oneDecimal.format(v / 1e3)}k`;
  return oneDecimal.format(v);
}

/** Per-command ticks: 1, 0.1, 0.001, 1e-5. */
export function formatRatioTick(v: number): string {
  return v >= 1e-4 ? formatRatio(v) : v.toExponential(0).replace('e-', 'e−');
}

/** "13.7×", "1.0×". */
export function formatSpeedUp(ratio: number): string {
  return `${ratio >= 100 ? formatCount(ratio) : oneDecimal.format(ratio)}×`;
}

/** The line under the form: what the sweep will send, and the time the added RTT alone costs. */
export function sweepPlanText(spec: SweepSpec): string {
  const commands = spec.perPoint * spec.repeats * spec.depths.length;
  const trips = sweepRoundTrips(spec);
  const what = `${plural(spec.depths.length, 'depth')} × ${plural(spec.repeats, 'repeat')} × ${formatCount(spec.perPoint)} ${spec.command}`;
  const parts = [`${what} = ${plural(commands, 'command')} in ${plural(trips, 'round trip')}`];
  if (spec.rttMs > 0) parts.push(`at least ${formatUs(trips * spec.rttMs * 1000)} waiting on the added ${formatCount(spec.rttMs)} ms RTT`);
  if (spec.reference) parts.push('then redis-benchmark at each depth');
  return parts.join(' · ');
}

/** "run 7 of 33 · depth 16, repeat 1" for the run under way; queue and cancel states in words. */
export function sweepProgressText(active: ActiveSweep): string {
  if (active.cancelling) return 'cancelling…';
  if (active.position === null) return 'sending…';
  if (active.position > 0) return `waiting: ${plural(active.position, 'request')} ahead`;
  const next = sweepRunAt(active.spec, active.done + 1);
  if (!next) return `finishing · ${active.done} of ${plural(active.total, 'run')} done`;
  const tool = next.tool === 'redis-benchmark' ? 'redis-benchmark · ' : '';
  return `run ${active.done + 1} of ${active.total} · ${tool}depth ${formatDepth(next.depth)}, repeat ${next.repeat}`;
}

export function progressFraction(active: ActiveSweep): number {
  const total = active.total || sweepRunCount(active.spec);
  return total > 0 ? Math.min(1, active.done / total) : 0;
}

/**
 * The speed-up from one depth to another by the one verdict rule (trace/derive/paired-verdict.ts): run i
 * of each depth came from round i, so the ratios to.values[i] ÷ from.values[i] are pairs; the median of
 * them with its 95 % interval (a sweep's repeats are a fixed count).
 */
export function depthVerdict(from: DepthSpread, to: DepthSpread): PairedVerdict {
  const k = Math.min(from.values.length, to.values.length);
  // Ratios of ops/s later ÷ earlier are times earlier ÷ later: "a-slower" means the deeper depth was faster.
  return pairedVerdict(Array.from({ length: k }, (_, i) => to.values[i]! / from.values[i]!), 'fixed');
}

/** "[95 % 12–15×]", or for too few repeats "; too few repeats for a 95 % interval (3; it needs 6)". */
function speedUpInterval(v: PairedVerdict): string {
  if (v.interval) return ` [95 % ${formatSpeedUp(v.interval.lo).replace('×', '')}–${formatSpeedUp(v.interval.hi)}]`;
  return '';
}

/** ", medians of 6 repeats" or ", medians; 3 repeats are too few for a 95 % interval (6 or more)". */
function repeatsNote(v: PairedVerdict): string {
  return v.interval ? `, medians of ${plural(v.pairs, 'repeat')}` : `, medians; ${plural(v.pairs, 'repeat')} ${v.pairs === 1 ? 'is' : 'are'} too few for a 95 % interval (${MIN_PAIRS_FOR_INTERVAL} or more)`;
}

/** "+32.1 %", "−26.8 %": a ratio as a change. */
const changeText = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${oneDecimal.format(Math.abs(ratio - 1) * 100)} %`;

/** A step's change, only when its 95 % interval says there was one: "From depth 512 to 1,024: within noise (…)". */
export function lastStepSentence(before: DepthSpread, top: DepthSpread): string {
  const step = `From depth ${formatDepth(before.depth)} to ${formatDepth(top.depth)}`;
  const v = depthVerdict(before, top);
  if (v.outcome === 'too-few') return `${step}: too few repeats to tell a change (${v.pairs}; a 95 % interval needs ${MIN_PAIRS_FOR_INTERVAL} or more).`;
  const interval = `${changeText(v.interval!.lo)} to ${changeText(v.interval!.hi)}`;
  if (v.outcome === 'within-noise') return `${step}: within noise (the 95 % interval of the change, ${interval}, includes none).`;
  const higher = v.outcome === 'a-slower';
  return `${step}: ${changeText(v.ratio)} [95 % ${interval}], ${higher ? 'higher' : 'lower'} in ${v.wins} of ${v.read} rounds.`;
}

/** Sentences read off the measured runs; empty until two depths are measured. Every ratio with its 95 % interval. */
export function sweepHeadline(series: SweepSeries): string[] {
  const base = baselineOf(series.ours);
  const top = series.ours.at(-1);
  if (!base || !top || top === base || base.spread.median <= 0) return [];
  const b = formatDepth(base.depth);
  const up = depthVerdict(base, top);
  const sentences = [
    up.outcome === 'within-noise'
      ? `Depth ${formatDepth(top.depth)}: within noise of the depth-${b} throughput${speedUpInterval(up)} (${formatRate(top.spread.median)} vs ${formatRate(base.spread.median)}${repeatsNote(up)}).`
      : `Depth ${formatDepth(top.depth)}: ${formatSpeedUp(up.ratio)} the depth-${b} throughput${speedUpInterval(up)} (${formatRate(top.spread.median)} vs ${formatRate(base.spread.median)}${repeatsNote(up)}).`,
  ];
  const tenfold = series.ours.find((p) => p.spread.median >= 10 * base.spread.median);
  const peak = series.ours.reduce((m, p) => (p.spread.median > m.spread.median ? p : m), base);
  sentences.push(
    tenfold
      ? `Its median first reached 10× depth ${b} at depth ${formatDepth(tenfold.depth)}; the Redis docs put the plateau at roughly 10×.`
      : `Its highest median, at depth ${formatDepth(peak.depth)}, was ${formatSpeedUp(peak.spread.median / base.spread.median)} depth ${b}; the Redis docs put the plateau at roughly 10×.`,
  );
  const before = series.ours.at(-2);
  if (before && before !== base && before.spread.median > 0) sentences.push(lastStepSentence(before, top));
  const refTop = series.reference.at(-1);
  const refBase = baselineOf(series.reference);
  if (refTop && refBase && refTop !== refBase && refBase.spread.median > 0) {
    const ref = depthVerdict(refBase, refTop);
    sentences.push(
      `redis-benchmark: ${formatRate(refTop.spread.median)} at depth ${formatDepth(refTop.depth)}, ${formatSpeedUp(ref.ratio)} its depth-${formatDepth(refBase.depth)} rate${speedUpInterval(ref)}.`,
    );
  }
  return sentences;
}

/** redis-benchmark times a run in whole milliseconds; below this its figure is coarse. */
export const COARSE_REFERENCE_MS = 50;

/**
 * What to know about redis-benchmark's run lengths, or null. A recorder that gave it more commands
 * where perPoint ran too fast for its millisecond clock records how many (`commands`): say so. An
 * older file ran perPoint everywhere: caution from the first depth at which that took it under 50 ms.
 */
export function coarseReferenceNote(doc: Pick<SweepDocument, 'sweep' | 'reference'>): string | null {
  const { perPoint } = doc.sweep;
  const points = doc.reference?.points ?? [];
  const raised = points.filter((p) => p.commands !== undefined && p.commands !== perPoint);
  if (raised.length > 0) {
    const counts = raised.map((p) => p.commands!);
    const range = Math.min(...counts) === Math.max(...counts) ? formatCount(counts[0]!) : `${formatCount(Math.min(...counts))}–${formatCount(Math.max(...counts))}`;
    const depths = raised.length === 1 ? `depth ${formatDepth(raised[0]!.depth)}` : `depths ${raised.map((p) => formatDepth(p.depth)).join(', ')}`;
    return `redis-benchmark times whole milliseconds, so at ${depths} it ran ${range} commands per run instead of ${formatCount(perPoint)}, for runs of ${REFERENCE_MIN_RUN_MS} ms or more; ops/s compare all the same.`;
  }
  const short = points.find((p) => p.commands === undefined && p.opsPerSec.some((ops) => ops > 0 && (perPoint / ops) * 1000 < COARSE_REFERENCE_MS));
  if (!short) return null;
  return `redis-benchmark times whole milliseconds, and from depth ${formatDepth(short.depth)} on its runs of ${formatCount(perPoint)} commands took under ${COARSE_REFERENCE_MS} ms, so its figures there are coarse; give it more commands per point (10,000+).`;
}

/**
 * Against a Redis with a password, redis-benchmark connects through Pipescope's auth relay (its args
 * say `-s <auth relay>`), one more local hop per round trip: say so, or null.
 */
export function authRelayNote(doc: Pick<SweepDocument, 'reference'>): string | null {
  if (!doc.reference?.args.includes('<auth relay>')) return null;
  return 'redis-benchmark reached this Redis through Pipescope\'s auth relay (a local socket that signs in, so the password never goes on its command line): one more local hop, which lowers its figures most at shallow depths.';
}

/** What was run, where, and by what: the chart's provenance line. */
export function sweepProvenance(doc: Pick<SweepDocument, 'sweep' | 'redis' | 'recorder'>): string {
  const { sweep, redis, recorder } = doc;
  const command = commandTakesValue(sweep.command) ? `${sweep.command} (${formatCount(sweep.valueBytes)} B values)` : sweep.command;
  const delay = sweep.rtt.addedMs > 0 ? `added RTT ${formatCount(sweep.rtt.addedMs)} ms${sweep.rtt.jitterMs > 0 ? ` ± ${formatCount(sweep.rtt.jitterMs)} ms` : ''} (delay proxy)` : 'no added delay';
  return [
    `${formatCount(sweep.perPoint)} × ${command} per point, ${plural(sweep.repeats, 'repeat')}`,
    `engine ${sweep.engine} (${recorder.client})`,
    `${recorder.tool} ${recorder.version} on ${recorder.runtime}`,
    `Redis ${redis.version} at ${redis.address}${redis.embedded ? ' (private)' : ''}`,
    delay,
    `started ${sweep.startedAt.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')}`,
  ].join(' · ');
}
