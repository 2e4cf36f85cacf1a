// Layout of the sparse sequence diagram (SVG mode): one arrow per request at its measured sentUs and
// one per reply at its measured repliedUs, bundles where one socket write / read carried several
// commands, and write/read marks on the client lane, with the labels each may carry (which of them are
// printed, and where, is diagram-labels-layout.ts's choice). Pure: times in µs in, plot px out (see
// diagram-geometry.ts for the coordinate spaces).
// Runs whose wire differs from their workload (MULTI … EXEC, EVAL, EVALSHA, MSET/MGET, GET-COMPUTE-SET,
// the held PING) and runs with error replies get labels on the arrows: each request its wire command's
// name, each reply its text as recorded (QUEUED, OK, EXEC's array); an error reply is always labelled.
import type { NestedErrors } from '../model/nested-errors.ts';
import { operationAt } from '../../../trace/format/wire-layout.ts';
import { replyText, wireDiffers, wireName } from '../format/command-text.ts';
import { formatBytes, formatCount } from '../format/number-format.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import { visibleRange } from '../base/sorted-search.ts';
import type { TimeScale } from './time-scale-layout.ts';

export type ArrowKind = 'request' | 'reply';

export interface ArrowItem {
  /** Command index. */
  index: number;
  kind: ArrowKind;
  /** Plot y (CSS px) where the arrow starts and ends: at the client for a request's start and a reply's end. */
  y1: number;
  y2: number;
  /** From x to x: client → Redis for a request, Redis → client for a reply. */
  x1: number;
  x2: number;
  error: boolean;
  /** Replies: error elements inside the reply (EXEC's array after a runtime error), when there are any. */
  nestedErrors?: NestedErrors;
  /**
   * Replies of MULTI/EXEC's queued commands: present when this command failed when EXEC ran it (its own
   * reply QUEUED): the error EXEC's array gave for it, or null when only its place is known.
   */
  failedInExec?: string | null;
  /** The label it may carry: the wire command's name (requests) or the reply as recorded (replies); error replies always have one. */
  label?: string;
  /** A shorter form of a long label, for where the long one finds no room. */
  shortLabel?: string;
  /** Requests: a command of the wire's framing (MULTI, EXEC, the held PING) rather than of the workload. */
  framing?: boolean;
}

/** Several arrows sharing one y because one socket write (or read) carried them all. */
export interface BundleItem {
  kind: ArrowKind;
  /** Index of the write (request) or read (reply) in the trace. */
  event: number;
  y: number;
  count: number;
  label: string;
}

export interface LaneMark {
  kind: 'write' | 'read';
  /** Index into doc.writes / doc.reads. */
  event: number;
  y: number;
  /** "write: 30 cmds, 9.8 KiB"; shortLabels: shorter forms ("30 cmds, 9.8 KiB", "30 cmds"), longest first. */
  label?: string;
  shortLabels?: string[];
}

export interface SequenceLayout {
  requests: ArrowItem[];
  replies: ArrowItem[];
  bundles: BundleItem[];
  marks: LaneMark[];
  /** Commands with at least one arrow drawn. */
  commandsDrawn: number;
}

/** Index ranges of the requests and the replies inside the visible time range. */
export function visibleCommandRanges(columns: TraceColumns, scale: TimeScale) {
  const [fromUs, toUs] = scale.domain() as [number, number];
  const sent = visibleRange(columns.sentUs, fromUs, toUs);
  const replied = visibleRange(columns.repliedUs, fromUs, toUs);
  return { sent, replied, commands: unionSize(sent, replied) };
}

/** Size of the union of two index intervals [start, end). */
export function unionSize(a: { start: number; end: number }, b: { start: number; end: number }): number {
  const lenA = a.end - a.start;
  const lenB = b.end - b.start;
  if (lenA === 0) return lenB;
  if (lenB === 0) return lenA;
  const overlap = Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
  return lenA + lenB - overlap;
}

export function sequenceLayout(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry): SequenceLayout {
  const { doc } = columns;
  const { sent, replied, commands } = visibleCommandRanges(columns, scale);
  const requests: ArrowItem[] = [];
  // Horizontal at the client-side time, unless the trace has Redis-side times: then each arrow slopes
  // down to (or from) when the delay proxy handed the command to Redis (or got the reply) — the hop
  // nearest the client — or else to when Redis executed it (MONITOR, server-traced runs).
  // An arrow is laid out when its client end is in view.
  const toServerUs = columns.toServerUs ?? columns.serverUs;
  const fromServerUs = columns.fromServerUs ?? columns.serverUs;
  // A command Redis never executed has no Redis-side time (horizontal arrows); one queued in MULTI ran
  // after its QUEUED reply came back, so its arrows end (and start) no later than that reply.
  const timed = (i: number) => columns.toServerUs !== null || columns.executed === null || columns.executed[i] === 1;
  for (let i = sent.start; i < sent.end; i++) {
    const y1 = scale(columns.sentUs[i]!);
    const y2 = toServerUs && timed(i) ? scale(Math.min(toServerUs[i]!, columns.repliedUs[i]!)) : y1;
    requests.push({ index: i, kind: 'request', y1, y2, x1: g.clientX, x2: g.serverX, error: false });
  }
  const replies: ArrowItem[] = [];
  for (let i = replied.start; i < replied.end; i++) {
    const y2 = scale(columns.repliedUs[i]!);
    const y1 = fromServerUs && timed(i) ? scale(Math.min(fromServerUs[i]!, columns.repliedUs[i]!)) : y2;
    const nested = columns.nestedErrors?.get(i);
    const failed = columns.failedInExec?.get(i);
    replies.push({
      index: i, kind: 'reply', y1, y2, x1: g.serverX, x2: g.clientX, error: columns.isError[i] === 1,
      ...(nested ? { nestedErrors: nested } : {}), ...(failed !== undefined ? { failedInExec: failed } : {}),
    });
  }

  const [fromUs, toUs] = scale.domain() as [number, number];
  const writes = visibleRange(columns.writeAtUs, fromUs, toUs);
  const reads = visibleRange(columns.readAtUs, fromUs, toUs);
  const bundles: BundleItem[] = [];
  const marks: LaneMark[] = [];
  for (let k = writes.start; k < writes.end; k++) {
    const w = doc.writes[k]!;
    const y = scale(w.atUs);
    const commands = `${formatCount(w.commands)} ${w.commands === 1 ? 'cmd' : 'cmds'}`;
    marks.push({ kind: 'write', event: k, y, label: `write: ${commands}, ${formatBytes(w.bytes)}`, shortLabels: [`${commands}, ${formatBytes(w.bytes)}`, commands] });
    if (w.commands > 1) bundles.push({ kind: 'request', event: k, y, count: w.commands, label: `×${formatCount(w.commands)} in 1 write` });
  }
  for (let k = reads.start; k < reads.end; k++) {
    const r = doc.reads[k]!;
    const y = scale(r.atUs);
    const replies = `${formatCount(r.replies)} ${r.replies === 1 ? 'reply' : 'replies'}`;
    marks.push({ kind: 'read', event: k, y, label: `read: ${replies}, ${formatBytes(r.bytes)}`, shortLabels: [`${replies}, ${formatBytes(r.bytes)}`, replies] });
    if (r.replies > 1) bundles.push({ kind: 'reply', event: k, y, count: r.replies, label: `×${formatCount(r.replies)} in 1 read` });
  }
  marks.sort((a, b) => a.y - b.y);
  // Runs whose wire differs from their workload, and runs with errors, label their arrows.
  if (columns.errors > 0 || wireDiffers(doc.run)) {
    for (const a of requests) {
      a.label = wireName(doc.run, a.index);
      // MULTI and EXEC (framing, the held PING) before the commands they frame, when labels crowd.
      if (operationAt(doc.run, a.index) === null) a.framing = true;
    }
    for (const a of replies) {
      const text = replyText(doc.commands[a.index]!);
      const long = shorten(text, a.error ? 26 : 18);
      a.label = a.error ? `✕ ${long}` : long;
      if (text.length > 10) a.shortLabel = a.error ? `✕ ${shorten(text, 10)}` : shorten(text, 10);
    }
  }
  return { requests, replies, bundles, marks, commandsDrawn: commands };
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
