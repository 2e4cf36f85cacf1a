// The neighbour view's sentences: how many of the neighbour's commands Redis ran
// inside the run (source: MONITOR), its p99 during the run against before it (source: the neighbour's
// own timings), and how long a PING waited on the run's connection against a second one. Pure, from the
// verdicts in trace/derive/neighbor-verdicts.ts, so the CLI and the browser say the same thing.
import { heldConnectionVerdict, neighborInsideRun, neighborLatency } from '../../../trace/derive/neighbor-verdicts.ts';
import type { LatencyStats } from '../../../trace/derive/latency-stats.ts';
import { percentileNeeds } from '../../../trace/derive/latency-stats.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatCount, formatUs, plural } from './number-format.ts';

export interface NeighborTexts {
  /** "37 of the neighbour's commands ran inside your pipeline", or why it is not known. */
  inside: string;
  insideCount: number | null;
  insideSource: string;
  /** "p99 12.3 ms during the run, 1.41 ms before it". */
  latency: string;
  latencySource: string;
  p99DuringUs: number | null;
  p99BeforeUs: number | null;
}

const WHAT: Partial<Record<RunMode, string>> = { multi: 'your transaction', eval: 'your script', sequential: 'your run' };

/** null without a neighbour. */
export function neighborTexts(doc: TraceDocument): NeighborTexts | null {
  const neighbor = doc.neighbor;
  const latency = neighborLatency(doc);
  if (!neighbor || !latency) return null;
  const inside = neighborInsideRun(doc);
  const what = WHAT[doc.run.mode] ?? 'your pipeline';
  const p99 = (stats: LatencyStats) => (stats.count >= percentileNeeds(99) ? stats.p99Us : null);
  const during = p99(latency.during);
  const before = p99(latency.before);
  const figure = (us: number | null, stats: LatencyStats) => (us !== null ? `p99 ${formatUs(us)}` : stats.count ? `max ${formatUs(stats.maxUs)} (too few for p99)` : 'no command');
  return {
    inside: inside
      ? `${formatCount(inside.inside)} of the neighbour’s commands ran inside ${what}`
      : `Whether the neighbour’s commands ran inside ${what} needs MONITOR`,
    insideCount: inside ? inside.inside : null,
    insideSource: inside
      ? `MONITOR: between the run’s first and last execution on Redis (${formatUs(inside.toUs - inside.fromUs)})`
      : 'turn MONITOR on to see the order Redis ran things in',
    latency: `${neighbor.command} at ${formatCount(neighbor.ratePerSec)}/s: ${figure(during, latency.during)} during the run, ${figure(before, latency.before)} before it` +
      (latency.errors ? ` · ${plural(latency.errors, 'error')}` : ''),
    latencySource: `the neighbour’s own timings, its connection ${neighbor.address}, one command at a time`,
    p99DuringUs: during,
    p99BeforeUs: before,
  };
}

/** "A PING on the same connection waited 41.2 ms behind the pipeline; on a second connection 100 µs"; null without the probe. */
export function heldConnectionText(doc: TraceDocument): { text: string; sameWaitUs: number; otherWaitUs: number } | null {
  const verdict = heldConnectionVerdict(doc);
  if (!verdict) return null;
  const what = doc.run.mode === 'chunked' ? 'the last chunk' : doc.run.mode === 'sequential' ? 'the last command' : 'the pipeline';
  return {
    text: `A PING on the same connection waited ${formatUs(verdict.sameWaitUs)} behind ${what}; on a second connection ${formatUs(verdict.otherWaitUs)}`,
    ...verdict,
  };
}

/**
 * What one point of the neighbour's latency chart stands for: "per command" when each bucket holds one,
 * "per ~12 commands" (the mean bucket, rounded) otherwise, "per bucket" before any command is in.
 */
export function bucketText(commands: number | undefined, buckets: number): string {
  if (commands === undefined || commands <= 0) return 'per bucket';
  const each = Math.max(1, Math.round(commands / Math.max(1, buckets)));
  return each === 1 ? 'per command' : `per ~${formatCount(each)} commands`;
}
