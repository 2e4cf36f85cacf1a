// The labels of a cluster run's diagram as candidates for the one label placement (label-placement.ts),
// placed in the same pass as the lane heads (diagram-labels-layout.ts), so that none overlaps another in
// the page, the canvas mode's frame or the SVG export: each master's head (its address) and note, the
// redirects' error texts and the ASKING that follows an ASK, refusals on a node and the client library's,
// the request labels (command and key, the {hash tag} kept), error replies, the slot strip's ranges and
// its caption. Priorities: node heads first, then what went wrong (the client's refusal, a node's, a
// redirect), the strip, the first and last request, then the rest. Each says shorter forms, so a phone
// prints less rather than nothing. Pure: plot px in, candidates out.
import type { ClusterGeometry } from './cluster-geometry.ts';
import type { ClusterLayout } from './cluster-layout.ts';
import { shortenings, type Box, type LabelCandidate } from './label-placement.ts';
import { ASCENT_EM, DESCENT_EM, LABEL_FONTS, type LabelFont, type TextMeasure } from './text-measure.ts';

/** The keys the cluster painter looks placed labels up by. */
export const clusterLabelKeys = {
  node: (id: string) => `cluster:node:${id}`,
  nodeNote: (id: string) => `cluster:node-note:${id}`,
  request: (index: number) => `cluster:request:${index}`,
  reply: (index: number) => `cluster:reply:${index}`,
  redirect: (index: number) => `cluster:redirect:${index}`,
  asking: (index: number) => `cluster:asking:${index}`,
  refusal: (index: number) => `cluster:refusal:${index}`,
  clientRefusal: 'cluster:client-refusal',
  clientError: 'cluster:client-error',
  slotRange: (first: number) => `cluster:slot-range:${first}`,
  slotCaption: 'cluster:slot-caption',
  densityNote: 'cluster:density-note',
};

/** Beside the single-Redis labels' priorities (diagram-labels-layout.ts: head 100, note 90, errorReply 70): the node heads before the client's. */
const PRIORITY = {
  nodeHead: 101,
  nodeNote: 88,
  clientRefusal: 80,
  refusal: 76,
  redirect: 75,
  asking: 74,
  strip: 72,
  errorReply: 70,
  requestEnds: 60,
  request: 40,
} as const;

/** The node heads' baselines (cluster-svg-painter.ts: title, then note, the swatch under them). */
export const NODE_HEAD_Y = { title: 14, note: 28 } as const;
/** px of air a request's label keeps above and below its text (outside its backdrop: cluster-svg-painter.ts). */
export const ROW_AIR_PX = 2;
/** px kept clear between two node heads. */
const HEAD_GAP_PX = 6;
/** Half the stroke of the halo round redirect and ASKING labels (diagram.css: stroke-width 3). */
const HALO_PX = 1.5;
/** A request's label: 8 px right of its socket's end, its baseline 5 px above the arrow (else 13 px below): its backdrop clear of the arrow. */
const REQUEST_LABEL = { dx: 8, above: -5, below: 13 } as const;

/** `densityNote`: canvas mode's key to its bands (lane-heads-layout.ts), printed under the strip; null in SVG mode. */
export function clusterLabelCandidates(g: ClusterGeometry, layout: ClusterLayout, measure: TextMeasure, densityNote: string | null = null): LabelCandidate[] {
  const plot: Box = { x0: 0, y0: g.plotTop - 8, x1: g.width, y1: g.plotBottom + 8 };
  return [
    ...headCandidates(g, layout, measure),
    ...problemCandidates(g, plot, layout),
    ...arrowCandidates(g, plot, layout),
    ...stripCandidates(g, layout, densityNote),
  ];
}

/**
 * Each master's address over its lifeline and its note, centred; every head in the same form, the longest
 * whose widest text fits between two lifelines ("127.0.0.1:7601", else ":7601", else "7601"; "master · 5,461 slots",
 * else "5,461 slots", else "5,461"), so the first head does not take the room of the next.
 */
function headCandidates(g: ClusterGeometry, layout: ClusterLayout, measure: TextMeasure): LabelCandidate[] {
  const strip: Box = { x0: 0, y0: 0, x1: g.width, y1: g.plotTop };
  const xs = layout.nodeHeads.map((h) => h.x);
  const room = xs.slice(1).reduce((min, x, i) => Math.min(min, x - xs[i]!), Number.POSITIVE_INFINITY) - HEAD_GAP_PX;
  const forms = <T>(items: readonly T[], ways: ((item: T) => string)[], font: LabelFont): ((item: T) => string[]) => {
    const fits = ways.findIndex((way) => Math.max(...items.map((item) => measure(way(item), font))) <= room);
    return (item) => unique(ways.slice(fits < 0 ? ways.length - 1 : fits).map((way) => way(item)));
  };
  const titles = forms(layout.nodeHeads, [(h) => h.title, (h) => `:${portOf(h.title)}`, (h) => portOf(h.title)], LABEL_FONTS.laneHead);
  const notes = forms(layout.nodeHeads, [(h) => h.note, (h) => h.note.replace(/^master · /, ''), (h) => h.note.replace(/^master · ([\d,]+) slots.*$/, '$1')], LABEL_FONTS.laneNote);
  return layout.nodeHeads.flatMap((h) => [
    {
      key: clusterLabelKeys.node(h.id), texts: titles(h), font: LABEL_FONTS.laneHead,
      spots: [{ x: h.x, y: NODE_HEAD_Y.title, anchor: 'middle' }], priority: PRIORITY.nodeHead, within: strip,
    },
    {
      key: clusterLabelKeys.nodeNote(h.id), texts: notes(h),
      font: LABEL_FONTS.laneNote, spots: [{ x: h.x, y: NODE_HEAD_Y.note, anchor: 'middle' }], priority: PRIORITY.nodeNote, within: strip,
    },
  ]);
}

/** Redirects (the error's text at the top of its arc, ASKING at the target), refusals on a node, the client library's refusal. */
function problemCandidates(g: ClusterGeometry, plot: Box, layout: ClusterLayout): LabelCandidate[] {
  const out: LabelCandidate[] = [];
  for (const r of layout.redirects) {
    const { x, y } = redirectLabelSpot(r);
    const [kind, slot] = r.label.split(' ');
    out.push({
      key: clusterLabelKeys.redirect(r.index), texts: unique([r.label, `${kind} ${slot ?? ''}`.trim(), kind ?? r.kind]), font: LABEL_FONTS.redirect,
      spots: [{ x, y, anchor: 'middle' }, { x, y: y - 13, anchor: 'middle' }, { x: r.x2 - 6, y: r.y2 - 4, anchor: 'end' }], priority: PRIORITY.redirect, within: plot, padX: HALO_PX,
      extent: haloExtent(LABEL_FONTS.redirect.size),
    });
    if (r.asking) {
      out.push({
        key: clusterLabelKeys.asking(r.index), texts: ['ASKING, then the command', 'ASKING'], font: LABEL_FONTS.asking,
        spots: [{ x: r.asking.x - 6, y: r.asking.y + 13, anchor: 'end' }, { x: r.asking.x + 6, y: r.asking.y + 13, anchor: 'start' }],
        priority: PRIORITY.asking, within: plot, padX: HALO_PX, extent: haloExtent(LABEL_FONTS.asking.size),
      });
    }
  }
  for (const r of layout.refusals) {
    out.push({
      key: clusterLabelKeys.refusal(r.index), texts: unique([r.label, r.kind]), font: LABEL_FONTS.arrowLabelBold,
      spots: [{ x: r.x + 9, y: r.y - 6, anchor: 'start' }, { x: r.x - 9, y: r.y - 6, anchor: 'end' }, { x: r.x + 9, y: r.y + 14, anchor: 'start' }],
      priority: PRIORITY.refusal, within: plot,
    });
  }
  // A library's refusal before sending, and its error after sending: the client lane's marks.
  for (const [key, mark] of [[clusterLabelKeys.clientRefusal, layout.clientRefusal], [clusterLabelKeys.clientError, layout.clientError]] as const) {
    if (!mark) continue;
    out.push({
      key, texts: unique([mark.title, mark.label, ...shortenings(mark.title, 12)]), font: LABEL_FONTS.arrowLabelBold,
      spots: [{ x: mark.x + 12, y: mark.y + 4, anchor: 'start' }], priority: PRIORITY.clientRefusal, within: { ...plot, x0: mark.x },
    });
  }
  return out;
}

/** Where a redirect's text goes: centred over the top of its arc (cluster-svg-painter.ts draws the arc through it). */
export function redirectLabelSpot(r: Pick<ClusterLayout['redirects'][number], 'x1' | 'x2' | 'y1' | 'y2'>): { x: number; y: number } {
  return { x: (r.x1 + r.x2) / 2, y: Math.min(r.y1, r.y2) - 16 };
}

/** Requests' command and key (shorter: the key's tail, then the command alone); error replies' text. */
function arrowCandidates(g: ClusterGeometry, plot: Box, layout: ClusterLayout): LabelCandidate[] {
  // From the leftmost socket's lane: a label starts just right of its own socket.
  const within: Box = { ...plot, x0: Math.min(g.clientX, ...g.socketX.values()), x1: g.width - 2 };
  const labelled = layout.requests.filter((a) => a.label !== undefined);
  const ends = new Set([labelled[0]?.index, labelled.at(-1)?.index]);
  const out: LabelCandidate[] = [];
  for (const a of labelled) {
    const full = `${a.label!.before}${a.label!.tag}${a.label!.after}`;
    const x = Math.min(a.x1, a.x2) + REQUEST_LABEL.dx;
    out.push({
      key: clusterLabelKeys.request(a.index), texts: requestTexts(full), font: LABEL_FONTS.arrowLabelBold,
      spots: [{ x, y: a.y + REQUEST_LABEL.above, anchor: 'start' }, { x, y: a.y + REQUEST_LABEL.below, anchor: 'start' }],
      // A few px of air above and below: one label every ~18 px at most, so a crowded run reads as rows rather than a block.
      priority: ends.has(a.index) ? PRIORITY.requestEnds : PRIORITY.request, within, padX: HALO_PX, extent: haloExtent(LABEL_FONTS.arrowLabelBold.size, ROW_AIR_PX),
    });
  }
  for (const a of layout.replies) {
    if (a.label === undefined) continue;
    const full = `${a.label.before}${a.label.tag}${a.label.after}`;
    const x = Math.min(a.x1, a.x2) + REQUEST_LABEL.dx;
    out.push({
      key: clusterLabelKeys.reply(a.index), texts: unique([full, ...shortenings(full, 8)]), font: LABEL_FONTS.arrowLabelBold,
      spots: [{ x, y: a.y + REQUEST_LABEL.above, anchor: 'start' }, { x, y: a.y + REQUEST_LABEL.below, anchor: 'start' }],
      priority: PRIORITY.errorReply, within, padX: HALO_PX, extent: haloExtent(LABEL_FONTS.arrowLabelBold.size),
    });
  }
  return out;
}

/**
 * "SET pipescope:m3x9k2ab-0a1b2c3d:key:3 <16 B value>", then "SET pipescope:…:key:3", "SET …key:3", "SET".
 * A {hash tag} in the key is kept whole in every form that shows the key.
 */
export function requestTexts(full: string): string[] {
  const [name, key] = full.split(' ');
  if (name === undefined || key === undefined) return [full];
  const parts = key.split(':');
  const tagAt = parts.findIndex((p) => p.includes('{'));
  const tail = parts.slice(tagAt >= 0 ? Math.min(tagAt, parts.length - 2) : parts.length - 2).join(':');
  return unique([full, `${name} ${key}`, parts.length > 3 ? `${name} ${parts[0]}:…:${tail}` : `${name} ${key}`, `${name} …${tail}`, name]);
}

/** The strip's ranges under their segments ("7601: 0–5460", else "0–5460", else "7601"), its caption, and the density note under it. */
function stripCandidates(g: ClusterGeometry, layout: ClusterLayout, densityNote: string | null): LabelCandidate[] {
  const { top, height } = g.strip;
  const under: Box = { x0: 0, y0: top + height, x1: g.width, y1: g.height };
  const out: LabelCandidate[] = layout.segments.map((s) => {
    const [owner, range] = s.label.includes(': ') ? s.label.split(': ') as [string, string] : ['', s.label];
    return {
      key: clusterLabelKeys.slotRange(s.first), texts: unique([s.label, range, ...(owner ? [owner] : [])]), font: LABEL_FONTS.slotRange,
      spots: [{ x: s.x + s.width / 2, y: top + height + 11, anchor: 'middle' }], priority: PRIORITY.strip,
      within: { ...under, x0: Math.max(0, s.x), x1: Math.min(g.width, s.x + s.width) },
    };
  });
  const used = layout.ticks.length;
  out.push({
    key: clusterLabelKeys.slotCaption,
    texts: unique([layout.stripCaption, `hash slots 0–16383 by owner · ▼ a slot the run used (${used})`, `slots 0–16383 · ▼ used (${used})`, `▼ ${used} slots used`]),
    font: LABEL_FONTS.slotCaption, spots: [{ x: g.strip.x0, y: top + height + 25, anchor: 'start' }], priority: PRIORITY.strip - 1, within: under,
  });
  if (densityNote) {
    out.push({
      key: clusterLabelKeys.densityNote, texts: [densityNote, ...shortenings(densityNote, 8)], font: LABEL_FONTS.laneNote,
      spots: [{ x: g.strip.x0, y: top + height + 38, anchor: 'start' }], priority: PRIORITY.strip - 2, within: under,
    });
  }
  return out;
}

/** Labels drawn with a 3 px halo in the paper's colour (paint-order stroke) or on a backdrop: the box grows by 1.5 px each way, and by `air` above and below. */
function haloExtent(size: number, air = 0): { top: number; bottom: number } {
  return { top: -ASCENT_EM * size - HALO_PX - air, bottom: DESCENT_EM * size + HALO_PX + air };
}

function portOf(address: string): string {
  return address.slice(address.lastIndexOf(':') + 1) || address;
}

function unique(texts: string[]): string[] {
  return [...new Set(texts.filter((t) => t !== ''))];
}
