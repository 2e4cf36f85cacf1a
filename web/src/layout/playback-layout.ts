// What a diagram shows at the playhead (µs since t0): only what had happened by then, and the messages
// on their way. Each arrow has a start and an end time — a request from its write to when it reached
// Redis, a reply from when it left Redis to its read. Redis's side is what the trace measured (the delay
// proxy's hand-over, or the execution from MONITOR); without it the arrows are horizontal and a message
// is taken to reach Redis halfway through its round trip (an assumption, for the travelling dot only).
// An arrow whose end has passed is drawn whole; one under way is drawn from its start to the playhead,
// with a dot at its tip; one not started is left out. Lane marks, bundles and Redis's marks appear at
// their own time. Pure: filters the draw lists of sequence-layout.ts / server-lane-layout.ts.
import { upperBound } from '../base/sorted-search.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import type { ArrowItem, ArrowKind, SequenceLayout } from './sequence-layout.ts';
import type { ServerLaneLayout } from './server-lane-layout.ts';
import type { TimeScale } from './time-scale-layout.ts';

/** At most this many travelling dots per diagram: beyond it, every k-th message in flight gets one. */
export const MAX_DOTS = 300;

export interface TravellingDot {
  kind: ArrowKind;
  /** Command index. */
  index: number;
  /** Plot px: on the message's arrow (or, for a horizontal arrow, on its implied path) at the playhead. */
  x: number;
  y: number;
}

export interface PlaybackMarks {
  /** Plot y of the playhead. */
  y: number;
  positionUs: number;
  dots: TravellingDot[];
  /** Messages in flight at the playhead (dots drawn for at most MAX_DOTS of them). */
  inFlight: number;
}

/** When command i's request reached Redis and its reply left it, µs since t0 (see the file's comment). */
function serverEnds(columns: TraceColumns, i: number): { arriveUs: number; leaveUs: number; measured: boolean } {
  const sentUs = columns.sentUs[i]!;
  const repliedUs = columns.repliedUs[i]!;
  const toServer = columns.toServerUs ?? columns.serverUs;
  const fromServer = columns.fromServerUs ?? columns.serverUs;
  // As sequence-layout.ts: a command Redis never executed has no Redis-side time; an arrow ends no later than the reply.
  const timed = columns.toServerUs !== null || columns.executed === null || columns.executed[i] === 1;
  if (toServer && fromServer && timed) {
    return { arriveUs: Math.min(toServer[i]!, repliedUs), leaveUs: Math.min(fromServer[i]!, repliedUs), measured: true };
  }
  const midUs = (sentUs + repliedUs) / 2;
  return { arriveUs: midUs, leaveUs: midUs, measured: false };
}

/** An arrow's start and end times: the request's write → Redis, the reply's Redis → read. */
function arrowTimes(columns: TraceColumns, a: ArrowItem): [number, number] {
  const ends = serverEnds(columns, a.index);
  if (a.kind === 'request') {
    const sentUs = columns.sentUs[a.index]!;
    return [sentUs, ends.measured ? ends.arriveUs : sentUs];
  }
  const repliedUs = columns.repliedUs[a.index]!;
  return [ends.measured ? ends.leaveUs : repliedUs, repliedUs];
}

/**
 * The arrows drawn at the playhead: whole when ended, cut at the playhead when under way (no label, so
 * it moves cleanly), left out when not started. `whole`: only arrows that have ended (reduced motion:
 * messages appear at their destination).
 */
function cutArrows(columns: TraceColumns, arrows: ArrowItem[], atUs: number, playheadY: number, whole: boolean): ArrowItem[] {
  const out: ArrowItem[] = [];
  for (const a of arrows) {
    const [startUs, endUs] = arrowTimes(columns, a);
    if (endUs <= atUs) out.push(a);
    else if (!whole && startUs <= atUs && endUs > startUs) {
      const t = (atUs - startUs) / (endUs - startUs);
      const { label: _label, shortLabel: _short, ...rest } = a;
      out.push({ ...rest, x2: a.x1 + t * (a.x2 - a.x1), y2: playheadY });
    }
  }
  return out;
}

/** The sequence layout as it stood at `atUs`. */
export function sequenceAtPlayhead(layout: SequenceLayout, columns: TraceColumns, atUs: number, playheadY: number, whole = false): SequenceLayout {
  const { doc } = columns;
  const writeUs = (k: number) => doc.writes[k]!.atUs;
  const readUs = (k: number) => doc.reads[k]!.atUs;
  return {
    requests: cutArrows(columns, layout.requests, atUs, playheadY, whole),
    replies: cutArrows(columns, layout.replies, atUs, playheadY, whole),
    bundles: layout.bundles.filter((b) => (b.kind === 'request' ? writeUs(b.event) : readUs(b.event)) <= atUs),
    marks: layout.marks.filter((m) => (m.kind === 'write' ? writeUs(m.event) : readUs(m.event)) <= atUs),
    commandsDrawn: layout.commandsDrawn,
  };
}

/** The Redis side as it stood at `atUs`: executions, syscalls and other clients' commands that had happened. */
export function serverLaneAtPlayhead(layout: ServerLaneLayout, columns: TraceColumns, atUs: number): ServerLaneLayout {
  return {
    executions: columns.serverUs ? layout.executions.filter((e) => columns.serverUs![e.index]! <= atUs) : [],
    syscalls: layout.syscalls.filter((s) => columns.syscallAtUs[s.event]! <= atUs),
    others: layout.others.filter((o) => columns.otherAtUs[o.event]! <= atUs),
    labelX: layout.labelX,
  };
}

/**
 * The playhead's y and a dot for each message in flight at `atUs`: a request between its write and
 * Redis, a reply between Redis and its read. The dot sits where the message is at the playhead: at
 * the playhead's y, its x interpolated from client to Redis (or back). dots: false → none (reduced motion).
 */
export function playbackMarks(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry, atUs: number, dots = true): PlaybackMarks {
  const y = scale(atUs);
  // In flight: sent ≤ atUs < replied. Both columns are non-decreasing, so these are one index range.
  const from = upperBound(columns.repliedUs, atUs);
  const to = upperBound(columns.sentUs, atUs);
  const inFlight = Math.max(0, to - from);
  const out: TravellingDot[] = [];
  if (dots && inFlight > 0) {
    const stride = Math.ceil(inFlight / MAX_DOTS);
    for (let i = from; i < to; i += stride) {
      const sentUs = columns.sentUs[i]!;
      const repliedUs = columns.repliedUs[i]!;
      const { arriveUs, leaveUs } = serverEnds(columns, i);
      if (atUs < arriveUs) {
        const t = arriveUs > sentUs ? (atUs - sentUs) / (arriveUs - sentUs) : 1;
        out.push({ kind: 'request', index: i, x: g.clientX + t * (g.serverX - g.clientX), y });
      } else if (atUs >= leaveUs) {
        const t = repliedUs > leaveUs ? (atUs - leaveUs) / (repliedUs - leaveUs) : 1;
        out.push({ kind: 'reply', index: i, x: g.serverX + t * (g.clientX - g.serverX), y });
      }
      // Between arriving and leaving, the command is at Redis (queued or executing): no dot.
    }
  }
  return { y, positionUs: atUs, dots: out, inFlight };
}
