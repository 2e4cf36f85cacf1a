// Where a diagram draws the mark under the pointer or the keyboard cursor, in plot px (diagram-geometry.ts):
// which command an arrow near the pointer belongs to, the hovered command's emphasised arrows and latency
// bracket, the keyboard cursor's ring, the point a keyboard tooltip is anchored to, and the pan that
// brings a time into view. Pure: no DOM; the controller (paint/diagram-controller.ts) asks and paints.
import { lowerBound } from '../base/sorted-search.ts';
import { formatUs } from '../format/number-format.ts';
import { markTimeUs, type MarkKind, type MarkRef } from '../model/diagram-marks.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import type { TimeScale } from './time-scale-layout.ts';

/** How close (plot px) the pointer must be to an arrow for the nearest-arrow lookup to pick it. */
export const HOVER_RADIUS_PX = 8;

/** How far (px) right of its mark's lifeline a keyboard tooltip starts. */
const TOOLTIP_GAP_PX = 24;

/** The hovered or focused command's arrows, emphasised, and its latency bracket (plot px). */
export interface FocusMarks {
  sentY: number;
  repliedY: number;
  /** Redis ends of the two arrows (equal to sentY / repliedY when no Redis-side time was recorded). */
  atServerY: number;
  leftServerY: number;
  latencyLabel: string;
}

/** The keyboard cursor's ring. */
export interface FocusRing {
  /** Which kind of mark the keyboard cursor is on (data-kind, for tests and styles). */
  kind: MarkKind;
  /** Plot px of the ring's box. */
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What a diagram draws for its hovered or focused mark. */
export interface MarkFocus {
  /** A command's emphasised arrows and bracket; null for a mark on the Redis side. */
  marks: FocusMarks | null;
  /** The ring round the mark, when the keyboard cursor is on it; null for the pointer's hover. */
  ring: FocusRing | null;
  /** Plot y of the mark: a command's request leaves the client there. */
  anchorY: number;
}

/**
 * The command whose request or reply arrow is nearest to plot y, within radiusPx; null when none is.
 * Arrows that share a time (a bundle) give their first command. O(log N): binary search on the sorted
 * sentUs and repliedUs columns.
 */
export function nearestCommand(columns: TraceColumns, scale: TimeScale, y: number, radiusPx = HOVER_RADIUS_PX): number | null {
  if (columns.n === 0) return null;
  const t = scale.invert(y);
  let best: number | null = null;
  let bestDistance = radiusPx;
  for (const times of [columns.sentUs, columns.repliedUs]) {
    const at = lowerBound(times, t);
    for (const candidate of [at - 1, at]) {
      if (candidate < 0 || candidate >= columns.n) continue;
      // For a bundle, prefer its first command: step back over equal times.
      const first = lowerBound(times, times[candidate]!);
      const distance = Math.abs(scale(times[first]!) - y);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = first;
      }
    }
  }
  return best;
}

/** What to draw for `mark` (which must exist in the trace); ringed: the keyboard cursor is on it. */
export function markFocus(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry, mark: MarkRef, ringed: boolean): MarkFocus {
  if (mark.kind !== 'command') {
    const anchorY = scale(markTimeUs(columns, mark));
    return { marks: null, ring: ringed ? serverSideRing(mark.kind, g, anchorY) : null, anchorY };
  }
  const index = mark.index;
  const sentUs = columns.sentUs[index]!;
  const repliedUs = columns.repliedUs[index]!;
  const sentY = scale(sentUs);
  const repliedY = scale(repliedUs);
  const toServer = columns.toServerUs ?? columns.serverUs;
  const fromServer = columns.fromServerUs ?? columns.serverUs;
  const marks: FocusMarks = {
    sentY,
    repliedY,
    atServerY: toServer ? scale(toServer[index]!) : sentY,
    leftServerY: fromServer ? scale(fromServer[index]!) : repliedY,
    latencyLabel: formatUs(repliedUs - sentUs),
  };
  const top = Math.min(marks.sentY, marks.atServerY);
  const bottom = Math.max(marks.repliedY, marks.leftServerY);
  const ring: FocusRing | null = ringed ? { kind: 'command', x: g.clientX - 6, y: top - 7, width: g.serverX - g.clientX + 12, height: bottom - top + 14 } : null;
  return { marks, ring, anchorY: sentY };
}

/** The keyboard focus ring around a mark on the Redis side (plot px): the execution diamond, the syscall box, the other client's dot. */
function serverSideRing(kind: Exclude<MarkKind, 'command'>, g: DiagramGeometry, y: number): FocusRing {
  const x = kind === 'execution' ? g.serverX - 8 : kind === 'syscall' ? g.serverX + 2.5 : g.serverX - 16;
  const width = kind === 'syscall' ? 16 : 15;
  return { kind, x, y: y - 7.5, width, height: 15 };
}

/**
 * Where a tooltip with no pointer to follow (the keyboard cursor's) goes, in client (viewport) px, given
 * where the diagram's SVG sits in the viewport: right of the lifeline the mark is on (the client's for a
 * command, Redis's otherwise), level with the mark, kept inside the plot's height.
 */
export function keyboardTooltipPoint(kind: MarkKind, anchorY: number, g: DiagramGeometry, svgLeft: number, svgTop: number): { x: number; y: number } {
  return {
    x: svgLeft + (kind === 'command' ? g.clientX : g.serverX) + TOOLTIP_GAP_PX,
    y: svgTop + Math.min(g.plotBottom, Math.max(g.plotTop, anchorY)),
  };
}

/**
 * The zoom translation (ty, plot px) that pans a diagram at zoom factor k to time `us`, centred; null when
 * `us` is already inside the plot. `scale` is the diagram's time scale as painted, domainEndUs the end of
 * its unzoomed domain (time-scale-layout.ts).
 */
export function revealTy(us: number, scale: TimeScale, g: DiagramGeometry, domainEndUs: number, k: number): number | null {
  const y = scale(us);
  if (y >= g.plotTop && y <= g.plotBottom) return null;
  const baseY = g.plotTop + ((us / domainEndUs) * (g.plotBottom - g.plotTop));
  return (g.plotTop + g.plotBottom) / 2 - k * baseY;
}
