// Layout of the dense sequence diagram (canvas mode): the visible time range is cut into rows of a
// few pixels and each row counts the requests sent and the replies received in it, by binary search
// on the sorted time columns, so the cost is O(rows · log N) whatever N is. Counts live in typed
// arrays; the visible counts sum exactly to the commands in view. Server-traced runs add rows of
// Redis executions (MONITOR) and syscalls (strace) for the Redis lane. Pure: no DOM.
import { formatCount } from '../format/number-format.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import { visibleCommandRanges } from './sequence-layout.ts';
import { lowerBound, upperBound, visibleRange } from '../base/sorted-search.ts';
import type { TimeScale } from './time-scale-layout.ts';

export const DENSITY_ROW_PX = 2;
/** Bundle labels are considered only when at most this many writes/reads are in view. */
const MAX_LABEL_CANDIDATES = 2000;
/** Per side, at most this many of the biggest bundles are offered to the label placement. */
const MAX_LABELS = 56;

export interface DensityLabel {
  kind: 'request' | 'reply';
  /** Index of the write (request) or read (reply) in the trace. */
  event: number;
  y: number;
  label?: string;
  count: number;
}

export interface DensityLayout {
  /** Row r spans plot y [plotTop + r·rowPx, plotTop + (r+1)·rowPx). */
  rowPx: number;
  rows: number;
  plotTop: number;
  /** Per row: requests sent, replies received, socket writes, socket reads. */
  requests: Uint32Array;
  replies: Uint32Array;
  writes: Uint32Array;
  reads: Uint32Array;
  /** Server-traced runs only (else null): per row, commands Redis executed, syscalls it made, other clients' commands. */
  executions: Uint32Array | null;
  syscalls: Uint32Array | null;
  others: Uint32Array | null;
  /** Commands written but not yet answered at the bottom edge of each row. */
  inFlight: Uint32Array;
  /** Largest request or reply count in a row, for intensity. */
  maxCount: number;
  /** Sum of requests (= requests in view) and of replies. */
  requestsInView: number;
  repliesInView: number;
  /** Commands with a request or a reply in view. */
  commandsDrawn: number;
  /** "×10,000 in 1 write" labels that the biggest bundles in view may carry (diagram-labels-layout.ts places them). */
  labels: DensityLabel[];
}

/** Counts the events of a sorted column per row; boundaries[r] is the time at the top of row r. */
export function bucketCounts(sorted: ArrayLike<number>, boundaries: Float64Array): Uint32Array {
  const rows = boundaries.length - 1;
  const counts = new Uint32Array(Math.max(0, rows));
  if (rows <= 0) return counts;
  let previous = lowerBound(sorted, boundaries[0]!);
  for (let r = 0; r < rows; r++) {
    // The last row is closed at the bottom, so an event exactly at the visible end is counted.
    const next = r === rows - 1 ? upperBound(sorted, boundaries[r + 1]!, previous) : lowerBound(sorted, boundaries[r + 1]!, previous);
    counts[r] = next - previous;
    previous = next;
  }
  return counts;
}

export function densityLayout(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry, rowPx = DENSITY_ROW_PX): DensityLayout {
  const rows = Math.max(1, Math.ceil((g.plotBottom - g.plotTop) / rowPx));
  const boundaries = new Float64Array(rows + 1);
  for (let r = 0; r < rows; r++) boundaries[r] = scale.invert(g.plotTop + r * rowPx);
  boundaries[rows] = scale.invert(g.plotBottom);
  const requests = bucketCounts(columns.sentUs, boundaries);
  const replies = bucketCounts(columns.repliedUs, boundaries);
  const writes = bucketCounts(columns.writeAtUs, boundaries);
  const reads = bucketCounts(columns.readAtUs, boundaries);
  const inFlight = new Uint32Array(rows);
  for (let r = 0; r < rows; r++) {
    const t = boundaries[r + 1]!;
    inFlight[r] = upperBound(columns.sentUs, t) - upperBound(columns.repliedUs, t);
  }
  let maxCount = 0;
  let requestsInView = 0;
  let repliesInView = 0;
  for (let r = 0; r < rows; r++) {
    maxCount = Math.max(maxCount, requests[r]!, replies[r]!);
    requestsInView += requests[r]!;
    repliesInView += replies[r]!;
  }
  return {
    rowPx,
    rows,
    plotTop: g.plotTop,
    requests,
    replies,
    writes,
    reads,
    executions: columns.serverUs ? bucketCounts(columns.serverUs, boundaries) : null,
    syscalls: columns.syscalls ? bucketCounts(columns.syscallAtUs, boundaries) : null,
    others: columns.others.length ? bucketCounts(columns.otherAtUs, boundaries) : null,
    inFlight,
    maxCount,
    requestsInView,
    repliesInView,
    commandsDrawn: visibleCommandRanges(columns, scale).commands,
    labels: bundleLabels(columns, scale),
  };
}

function bundleLabels(columns: TraceColumns, scale: TimeScale): DensityLabel[] {
  const { doc } = columns;
  const [fromUs, toUs] = scale.domain() as [number, number];
  const writes = visibleRange(columns.writeAtUs, fromUs, toUs);
  const reads = visibleRange(columns.readAtUs, fromUs, toUs);
  const candidates: DensityLabel[] = [];
  if (writes.end - writes.start <= MAX_LABEL_CANDIDATES) {
    for (let k = writes.start; k < writes.end; k++) {
      const w = doc.writes[k]!;
      if (w.commands > 1) candidates.push({ kind: 'request', event: k, y: scale(w.atUs), count: w.commands, label: `×${formatCount(w.commands)} in 1 write` });
    }
  }
  if (reads.end - reads.start <= MAX_LABEL_CANDIDATES) {
    for (let k = reads.start; k < reads.end; k++) {
      const r = doc.reads[k]!;
      if (r.replies > 1) candidates.push({ kind: 'reply', event: k, y: scale(r.atUs), count: r.replies, label: `×${formatCount(r.replies)} in 1 read` });
    }
  }
  // The biggest bundles per side (request labels sit left, reply labels right), in time order.
  const chosen: DensityLabel[] = [];
  for (const kind of ['request', 'reply'] as const) {
    const side = candidates.filter((c) => c.kind === kind).sort((a, b) => b.count - a.count || a.y - b.y).slice(0, MAX_LABELS);
    chosen.push(...side.sort((a, b) => a.y - b.y));
  }
  return chosen;
}
