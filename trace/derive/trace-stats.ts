// Figures derived from a trace document: latency percentiles and error counts. Derived, never
// stored, so a trace cannot disagree with its own summary.
import type { TraceDocument } from '../format/trace-format.ts';

/** Nearest-rank percentile of an ascending array (p in 0..100). */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  const n = sortedAscending.length;
  if (n === 0) return 0;
  const rank = Math.min(n, Math.max(1, Math.ceil((p / 100) * n)));
  return sortedAscending[rank - 1]!;
}

export function errorCount(doc: TraceDocument): number {
  return doc.commands.reduce((sum, c) => sum + ('error' in c ? 1 : 0), 0);
}
