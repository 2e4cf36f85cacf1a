// How wide a label's text is, as a function the placement pass is given: the page passes one that asks
// a canvas (paint/canvas-text-measure.ts, the fonts the SVG really uses), tests pass a fixed one, so a
// layout is the same on every run of a test. The fonts here mirror paint/diagram.css, class by class.
// Pure: no DOM.

export interface LabelFont {
  family: 'sans' | 'mono';
  /** CSS px. */
  size: number;
  /** CSS font-weight. */
  weight: number;
  italic: boolean;
}

/** Width in CSS px of `text` set in `font`. */
export type TextMeasure = (text: string, font: LabelFont) => number;

const font = (family: LabelFont['family'], size: number, weight = 400, italic = false): LabelFont => ({ family, size, weight, italic });

/** The diagram's label fonts (diagram.css: .lane-head, .lane-note, .server-note, .arrow-label, .badge-text, .mark text, .syscall-mark text). */
export const LABEL_FONTS = {
  laneHead: font('sans', 12.5, 650),
  laneNote: font('sans', 11),
  serverNote: font('sans', 11, 400, true),
  arrowLabel: font('sans', 10.5),
  arrowLabelBold: font('sans', 10.5, 600),
  badge: font('mono', 10.5, 600),
  mark: font('mono', 10.5),
  /** A cluster run's labels (.slot-range, .slot-caption, .redirect-label, .asking-label). */
  slotRange: font('mono', 10),
  slotCaption: font('sans', 10.5),
  redirect: font('mono', 10.5, 600),
  asking: font('mono', 10.5, 500),
} as const satisfies Record<string, LabelFont>;

/**
 * A label's text box above and below its baseline, in ems: the font's ascent and descent as a browser's
 * text box (SVG getBBox) reports them for DejaVu Sans, the widest of the pinned and system fonts.
 */
export const ASCENT_EM = 0.93;
export const DESCENT_EM = 0.24;

/**
 * A width estimate from the number of characters, for where no canvas measures (jsdom, workers) and for
 * tests: DejaVu Sans Mono advances 0.602 em a character; proportional text is taken at a generous
 * average (bold wider), so an estimate errs towards dropping a label rather than overlapping one.
 */
export const estimateTextWidth: TextMeasure = (text, f) => {
  const em = f.family === 'mono' ? 0.602 : f.weight >= 600 ? 0.66 : 0.6;
  return [...text].length * em * f.size;
};
