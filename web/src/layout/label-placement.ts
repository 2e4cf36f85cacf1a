// The one pass that decides which labels a diagram prints, so that no two printed labels overlap: every
// candidate label says where it may go (its spots, preferred first), what it may say (its texts, most
// informative first) and how much it matters (its priority); candidates are taken by priority, then in
// the order given, and each keeps the first text and spot whose box lies inside its region and clear of
// every label kept before it. A label with no room is dropped, as speedscope and Perfetto leave out
// labels too narrow to read; what it said stays in the tooltip of its mark. Deterministic: the same
// candidates and measure give the same placement. Pure: no DOM; widths come from the measure given.
import { ASCENT_EM, DESCENT_EM, type LabelFont, type TextMeasure } from './text-measure.ts';

/** A rectangle in plot px: x0 ≤ x1, y0 ≤ y1. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Where a label may go: its text starts ('start'), is centred ('middle') or ends ('end') at x, its baseline at y (plot px). */
export interface LabelSpot {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
}

export interface LabelCandidate {
  /** Unique within one placement; the painters look labels up by it. */
  key: string;
  /** What it may say, most informative first (the full text, then shorter forms). */
  texts: readonly string[];
  font: LabelFont;
  /** Where it may go, preferred first. */
  spots: readonly LabelSpot[];
  /** Higher is placed first. */
  priority: number;
  /** The region the label's box must stay inside (the plot, its lane, the heads' strip). */
  within: Box;
  /** px of the label's own around its text (a badge's padding): left and right of the text. */
  padX?: number;
  /** The box's top and bottom relative to the baseline, px; by default the font's ascent and descent. */
  extent?: { top: number; bottom: number };
}

export interface PlacedLabel {
  key: string;
  /** The text printed. */
  text: string;
  /** The candidate's first text: what a tooltip shows when the printed one is shorter. */
  full: string;
  /** The spot chosen. */
  x: number;
  y: number;
  anchor: LabelSpot['anchor'];
  /** The text's measured width, px, and the box the label occupies (text and padding), plot px. */
  width: number;
  box: Box;
}

export interface LabelPlacement {
  /** Kept labels by key. */
  placed: Map<string, PlacedLabel>;
  /** Keys of the candidates that found no room, in the order they were given. */
  dropped: string[];
}

/** Height of a row of the index of kept boxes, px (labels are ~12–14 px tall). */
const INDEX_ROW_PX = 32;

/** The box a text of `width` px occupies at `spot`. */
export function labelBox(c: Pick<LabelCandidate, 'font' | 'padX' | 'extent'>, spot: LabelSpot, width: number): Box {
  const pad = c.padX ?? 0;
  const top = c.extent?.top ?? -ASCENT_EM * c.font.size;
  const bottom = c.extent?.bottom ?? DESCENT_EM * c.font.size;
  const x0 = spot.anchor === 'start' ? spot.x - pad : spot.anchor === 'middle' ? spot.x - width / 2 - pad : spot.x - width - pad;
  return { x0, y0: spot.y + top, x1: x0 + width + 2 * pad, y1: spot.y + bottom };
}

/** Whether two boxes share any area (touching edges do not). */
export function boxesOverlap(a: Box, b: Box): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

function inside(box: Box, region: Box): boolean {
  return box.x0 >= region.x0 && box.x1 <= region.x1 && box.y0 >= region.y0 && box.y1 <= region.y1;
}

/** Kept boxes bucketed by rows of INDEX_ROW_PX, so a test looks at the few boxes near it, not at all of them. */
class BoxIndex {
  private readonly rows = new Map<number, Box[]>();

  private *rowsOf(box: Box): Generator<number> {
    for (let r = Math.floor(box.y0 / INDEX_ROW_PX); r <= Math.floor(box.y1 / INDEX_ROW_PX); r++) yield r;
  }

  clear(box: Box): boolean {
    for (const r of this.rowsOf(box)) {
      for (const other of this.rows.get(r) ?? []) if (boxesOverlap(box, other)) return false;
    }
    return true;
  }

  add(box: Box): void {
    for (const r of this.rowsOf(box)) {
      const row = this.rows.get(r);
      if (row) row.push(box);
      else this.rows.set(r, [box]);
    }
  }
}

export function placeLabels(candidates: readonly LabelCandidate[], measure: TextMeasure): LabelPlacement {
  // By priority, then in the order given (a stable sort): the result depends on nothing else.
  const order = candidates.map((c, i) => ({ c, i })).sort((a, b) => b.c.priority - a.c.priority || a.i - b.i);
  const index = new BoxIndex();
  const placed = new Map<string, PlacedLabel>();
  const droppedAt = new Set<number>();
  for (const { c, i } of order) {
    const kept = firstFit(c, index, measure);
    if (kept) {
      index.add(kept.box);
      placed.set(c.key, kept);
    } else droppedAt.add(i);
  }
  return { placed, dropped: candidates.filter((_, i) => droppedAt.has(i)).map((c) => c.key) };
}

/** The first text (most informative) that fits at some spot (preferred first), or null. */
function firstFit(c: LabelCandidate, index: BoxIndex, measure: TextMeasure): PlacedLabel | null {
  const full = c.texts[0];
  if (full === undefined) return null;
  for (const text of c.texts) {
    const width = measure(text, c.font);
    for (const spot of c.spots) {
      const box = labelBox(c, spot, width);
      if (inside(box, c.within) && index.clear(box)) return { key: c.key, text, full, x: spot.x, y: spot.y, anchor: spot.anchor, width, box };
    }
  }
  return null;
}

/**
 * Shorter forms of a sentence, cut at word boundaries and ended with "…", longest first, down to
 * `minChars` characters before the ellipsis (a shorter stub says too little to be worth printing).
 */
export function shortenings(text: string, minChars = 6): string[] {
  const words = text.split(' ');
  const out: string[] = [];
  for (let k = words.length - 1; k >= 1; k--) {
    const stub = words.slice(0, k).join(' ').replace(/[\s,;:·—–-]+$/u, '');
    if ([...stub].length >= minChars && !out.includes(`${stub}…`)) out.push(`${stub}…`);
  }
  return out;
}
