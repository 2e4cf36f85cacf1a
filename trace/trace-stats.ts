// Figures derived from a trace document: latency percentiles and error counts. Derived, never
// stored, so a trace cannot disagree with its own summary.
import type { TraceDocument } from './trace-format.ts';

export interface LatencySummary {
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return 0;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sortedAscending[rank - 1]!;
}

/** Per-command latency: from the write that carried the command to the chunk that completed its reply. */
export function latencySummary(doc: TraceDocument): LatencySummary {
  const { commands } = doc;
  const latencies = new Float64Array(commands.length);
  for (let i = 0; i < commands.length; i++) latencies[i] = commands[i]!.repliedUs - commands[i]!.sentUs;
  latencies.sort();
  return {
    p50Us: percentile(latencies, 50),
    p99Us: percentile(latencies, 99),
    maxUs: latencies.length ? latencies[latencies.length - 1]! : 0,
  };
}

export function errorCount(doc: TraceDocument): number {
  return doc.commands.reduce((sum, c) => sum + ('error' in c ? 1 : 0), 0);
}
