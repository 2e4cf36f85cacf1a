// The plain-words line under each diagram, computed from the trace: how many writes carried the
// commands, how many reads brought the replies, and whether each command waited for the previous
// reply (a round trip each), many were in flight at once, or both in turn (rounds: a chunked run's
// pipelines, each written after the previous one's replies). Never a canned sentence. A cluster run's
// line says its critical path over the nodes instead (cluster-run-explanation.ts).
import type { TraceColumns } from '../model/trace-columns.ts';
import { clusterRunExplanation } from './cluster-run-explanation.ts';
import { formatCount, plural } from './number-format.ts';

/** Most commands written but not yet answered at any one moment. */
export function maxInFlight(columns: TraceColumns): number {
  const { sentUs, repliedUs, n } = columns;
  // Merge the two sorted columns; at equal times replies count first (a reply frees its slot).
  let best = 0;
  let i = 0;
  let j = 0;
  while (i < n) {
    if (j < n && repliedUs[j]! <= sentUs[i]! && j < i) j++;
    else {
      i++;
      best = Math.max(best, i - j);
    }
  }
  return best;
}

/** Commands (after the first) written only once the previous command's reply had arrived. */
export function waitedForPrevious(columns: TraceColumns): number {
  let waited = 0;
  for (let i = 1; i < columns.n; i++) if (columns.sentUs[i]! >= columns.repliedUs[i - 1]!) waited++;
  return waited;
}

export function runExplanation(columns: TraceColumns): string {
  const { n, doc } = columns;
  // A cluster run: its round trips per node and on the critical path (cluster-run-explanation.ts).
  const cluster = doc.cluster ? clusterRunExplanation(doc) : null;
  if (cluster) return cluster;
  const writes = doc.writes.length;
  const reads = doc.reads.length;
  const carried = `${plural(n, 'command')} in ${plural(writes, 'write')}, replies in ${plural(reads, 'read')}`;
  const waited = waitedForPrevious(columns);
  if (n > 1 && waited === n - 1) {
    return `${carried}: ${formatCount(n)} round trips — each command was written only after the previous reply arrived.`;
  }
  const inFlight = maxInFlight(columns);
  if (n > 1 && inFlight === n) return `${carried}: all ${formatCount(n)} were in flight at once — one round trip for the whole batch.`;
  const rounds = waited + 1;
  if (rounds > 1) {
    return `${carried}: ${formatCount(rounds)} rounds of up to ${plural(inFlight, 'command')} in flight — each round written only after the previous round’s replies arrived.`;
  }
  return `${carried}: up to ${plural(inFlight, 'command')} in flight at once.`;
}
