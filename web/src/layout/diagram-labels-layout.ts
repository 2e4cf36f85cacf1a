// Every label of one sequence-diagram frame, placed together so that none overlaps another: the lane
// heads and their notes, the arrows' labels (wire command names, replies as recorded, errors), the bundle
// badges ("×30 in 1 write"), the client lane's write/read labels and the Redis lane's syscall labels;
// for a cluster run, its node heads, redirects, refusals, request labels and slot strip (cluster-labels-layout.ts).
// Each becomes a candidate for label-placement.ts with the spots its painter may use, its shorter forms
// and a priority: heads first, then error replies, then the first and last bundle of a run of batches and
// the biggest, then framing commands (MULTI, EXEC), then the rest. Canvas and SVG mode, the page and the
// SVG export all paint from this one placement. Pure: plot px in, placed labels out.
import type { ClusterGeometry } from './cluster-geometry.ts';
import { clusterLabelCandidates } from './cluster-labels-layout.ts';
import type { ClusterLayout } from './cluster-layout.ts';
import type { DensityLabel } from './density-layout.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import { shortenings, placeLabels, type Box, type LabelCandidate, type LabelPlacement, type LabelSpot } from './label-placement.ts';
import type { LaneHeads } from './lane-heads-layout.ts';
import type { ArrowItem, ArrowKind, BundleItem, LaneMark, SequenceLayout } from './sequence-layout.ts';
import type { ServerLaneLayout } from './server-lane-layout.ts';
import { LABEL_FONTS, type LabelFont, type TextMeasure } from './text-measure.ts';

export type { LabelPlacement, PlacedLabel } from './label-placement.ts';

/** The keys painters look placed labels up by. */
export const labelKeys = {
  arrow: (kind: ArrowKind, index: number) => `${kind}:${index}`,
  bundle: (kind: ArrowKind, event: number) => `bundle:${kind}:${event}`,
  mark: (kind: LaneMark['kind'], event: number) => `mark:${kind}:${event}`,
  syscall: (event: number) => `syscall:${event}`,
  head: (name: HeadName) => `head:${name}`,
};

export type HeadName = keyof LaneHeads;

/** What one frame shows: the SVG-mode layouts, or canvas mode's bundle labels. */
export interface DiagramLabelSources {
  g: DiagramGeometry;
  heads: LaneHeads;
  /** SVG mode (null in canvas mode). */
  sequence: SequenceLayout | null;
  /** Canvas mode: the bundle labels of the density layout (null in SVG mode). */
  densityLabels: readonly DensityLabel[] | null;
  /** Server-traced runs in SVG mode. */
  lane: ServerLaneLayout | null;
  /** A cluster run: its geometry, what its painter draws (in canvas mode, without the arrows) and canvas mode's density note. */
  cluster?: { g: ClusterGeometry; layout: ClusterLayout; densityNote: string | null } | null;
}

/** Badges: a 14 px box, its text 5 px in from each side, the baseline 10.5 px below its top (sequence-svg-painter.ts). */
const BADGE = { padX: 5, height: 14, baseline: 10.5 } as const;
/** Lane and syscall labels sit centred on their mark: the baseline this far below the mark's y (0.32 em of 10.5 px). */
const MARK_BASELINE_DY = 0.32 * LABEL_FONTS.mark.size;

const PRIORITY = {
  head: 100,
  note: 90,
  errorReply: 70,
  bundleEnds: 60,
  bundle: 50,
  framing: 45,
  arrow: 40,
  laneEnds: 35,
  lane: 30,
} as const;

/** Places every label of the frame. */
export function diagramLabels(sources: DiagramLabelSources, measure: TextMeasure): LabelPlacement {
  const { g } = sources;
  const plot: Box = { x0: 0, y0: g.plotTop - 8, x1: g.width, y1: g.plotBottom + 8 };
  const candidates: LabelCandidate[] = [...headCandidates(g, sources.heads)];
  if (sources.sequence) {
    const { requests, replies, bundles, marks } = sources.sequence;
    candidates.push(...bundleCandidates(g, plot, bundles));
    candidates.push(...arrowCandidates(g, plot, requests), ...arrowCandidates(g, plot, replies));
    candidates.push(...markCandidates(g, plot, marks));
  }
  if (sources.densityLabels) candidates.push(...bundleCandidates(g, plot, sources.densityLabels));
  if (sources.lane) candidates.push(...syscallCandidates(g, plot, sources.lane));
  if (sources.cluster) candidates.push(...clusterLabelCandidates(sources.cluster.g, sources.cluster.layout, measure, sources.cluster.densityNote));
  return placeLabels(candidates, measure);
}

function headCandidates(g: DiagramGeometry, heads: LaneHeads): LabelCandidate[] {
  // The heads' strip above the plot. The client's head ends at its lifeline (its lane lies to the left) or,
  // where the lane is too narrow for it, starts at the panel's edge; Redis's end at its lifeline, or at the
  // panel's right edge over a Redis lane; the density note starts just right of the client lifeline.
  const strip: Box = { x0: 0, y0: 0, x1: g.width, y1: g.plotTop };
  const serverX = g.width - g.serverX > 40 ? g.width - 6 : g.serverX + 8;
  const client = (y: number): LabelSpot[] => [{ x: g.clientX + 4, y, anchor: 'end' }, { x: 2, y, anchor: 'start' }];
  const server = (y: number): LabelSpot[] => [{ x: Math.min(serverX, g.width - 2), y, anchor: 'end' }];
  const one = (name: HeadName, text: string | null, font: LabelFont, spots: LabelSpot[], priority: number, minChars: number): LabelCandidate[] =>
    text ? [{ key: labelKeys.head(name), texts: [text, ...shortenings(text, minChars)], font, spots, priority, within: strip }] : [];
  return [
    ...one('client', heads.client, LABEL_FONTS.laneHead, client(14), PRIORITY.head, 5),
    ...one('server', heads.server, LABEL_FONTS.laneHead, server(14), PRIORITY.head, 5),
    ...one('serverNote', heads.serverNote, LABEL_FONTS.serverNote, server(28), PRIORITY.note, 8),
    ...one('clientNote', heads.clientNote, LABEL_FONTS.laneNote, client(28), PRIORITY.note - 1, 8),
    ...one('densityNote', heads.densityNote, LABEL_FONTS.laneNote, [{ x: g.clientX + 8, y: 41, anchor: 'start' }], PRIORITY.note - 2, 8),
    ...one('serverLaneNote', heads.serverLaneNote, LABEL_FONTS.serverNote, server(41), PRIORITY.note - 3, 8),
  ];
}

/**
 * Badges: a request's near the client, above its line (else below); a reply's near Redis, below its line
 * (else above). "×30 in 1 write" may shorten to "×30" (the colour says write or read). Per kind, the first
 * and last of the run of batches in view come first, then the biggest.
 */
function bundleCandidates(g: DiagramGeometry, plot: Box, bundles: readonly (BundleItem | DensityLabel)[]): LabelCandidate[] {
  const within: Box = { ...plot, x0: g.clientX, x1: g.serverX };
  const out: LabelCandidate[] = [];
  for (const kind of ['request', 'reply'] as const) {
    const side = bundles.filter((b) => b.kind === kind && b.label !== undefined).sort((a, b) => a.y - b.y);
    const biggest = Math.max(1, ...side.map((b) => b.count));
    side.forEach((b, i) => {
      const above = b.y - 17 + BADGE.baseline;
      const below = b.y + 4 + BADGE.baseline;
      const spots: LabelSpot[] = kind === 'request'
        ? [{ x: g.clientX + 10 + BADGE.padX, y: above, anchor: 'start' }, { x: g.clientX + 10 + BADGE.padX, y: below, anchor: 'start' }]
        : [{ x: g.serverX - 10 - BADGE.padX, y: below, anchor: 'end' }, { x: g.serverX - 10 - BADGE.padX, y: above, anchor: 'end' }];
      const ends = i === 0 || i === side.length - 1;
      out.push({
        key: labelKeys.bundle(kind, b.event),
        texts: [b.label!, `×${b.label!.slice(1).split(' ')[0]}`],
        font: LABEL_FONTS.badge,
        spots,
        // Ends first; among the rest, bigger bundles first.
        priority: ends ? PRIORITY.bundleEnds : PRIORITY.bundle + (5 * b.count) / biggest,
        within,
        padX: BADGE.padX,
        extent: { top: -BADGE.baseline, bottom: BADGE.height - BADGE.baseline },
      });
    });
  }
  return out;
}

/** An arrow's label at its end: a request's at Redis (ending 8 px before it), a reply's at the client. */
function arrowCandidates(g: DiagramGeometry, plot: Box, arrows: readonly ArrowItem[]): LabelCandidate[] {
  const within: Box = { ...plot, x0: g.clientX + 1, x1: g.serverX - 1 };
  const out: LabelCandidate[] = [];
  for (const a of arrows) {
    if (a.label === undefined) continue;
    const request = a.kind === 'request';
    const x = request ? a.x2 - 8 : a.x2 + 16;
    const anchor = request ? 'end' : 'start';
    out.push({
      key: labelKeys.arrow(a.kind, a.index),
      texts: a.shortLabel === undefined ? [a.label] : [a.label, a.shortLabel],
      font: a.error || request ? LABEL_FONTS.arrowLabelBold : LABEL_FONTS.arrowLabel,
      // Below the end, clear of the shaft (a request comes down from the upper left, a reply from the upper
      // right); above it only at the foot of the plot, where below is cut off.
      spots: [{ x, y: a.y2 + 12 > g.plotBottom + 6 ? a.y2 - 4 : a.y2 + 12, anchor }],
      priority: a.error ? PRIORITY.errorReply : a.framing ? PRIORITY.framing : PRIORITY.arrow,
      within,
    });
  }
  return out;
}

/** The client lane's labels, ending left of the write/read marks, never into the time axis; the first and last of each kind first. */
function markCandidates(g: DiagramGeometry, plot: Box, marks: readonly LaneMark[]): LabelCandidate[] {
  const within: Box = { ...plot, x0: g.axisX, x1: g.clientX - 11 };
  const ends = endsOf(marks, (m) => m.kind);
  return marks.flatMap((m) => (m.label === undefined ? [] : [{
    key: labelKeys.mark(m.kind, m.event),
    texts: [m.label, ...(m.shortLabels ?? [])],
    font: LABEL_FONTS.mark,
    spots: [{ x: g.clientX - 15, y: m.y + MARK_BASELINE_DY, anchor: 'end' as const }],
    priority: ends.has(m) ? PRIORITY.laneEnds : PRIORITY.lane,
    within,
  }]));
}

/** The Redis lane's labels, right of the syscall marks, inside the panel. */
function syscallCandidates(g: DiagramGeometry, plot: Box, lane: ServerLaneLayout): LabelCandidate[] {
  const within: Box = { ...plot, x0: lane.labelX, x1: g.width - 2 };
  const ends = endsOf(lane.syscalls.filter((s) => s.label !== undefined), () => 'syscall');
  return lane.syscalls.flatMap((s) => (s.label === undefined ? [] : [{
    key: labelKeys.syscall(s.event),
    texts: [s.label],
    font: LABEL_FONTS.mark,
    spots: [{ x: lane.labelX, y: s.y + MARK_BASELINE_DY, anchor: 'start' as const }],
    priority: ends.has(s) ? PRIORITY.laneEnds : PRIORITY.lane,
    within,
  }]));
}

/** The first and the last labelled item of each group (items in time order). */
function endsOf<T extends { label?: string | undefined }>(items: readonly T[], group: (item: T) => string): Set<T> {
  const first = new Map<string, T>();
  const last = new Map<string, T>();
  for (const item of items) {
    if (item.label === undefined) continue;
    if (!first.has(group(item))) first.set(group(item), item);
    last.set(group(item), item);
  }
  return new Set([...first.values(), ...last.values()]);
}
