// The page's measure of a label's width for the label placement (layout/label-placement.ts): a 2D
// canvas's measureText in the fonts the diagram's SVG text really uses, resolved from the CSS of the
// element given (--mono, and the inherited sans-serif family), so what the placement keeps clear is what
// the browser draws. Where no canvas measures (jsdom), the layout's estimate stands in. Widths are
// cached per font and text (bounded), since a frame asks again for the labels of the last one.
import { estimateTextWidth, type LabelFont, type TextMeasure } from '../layout/text-measure.ts';

/** Cached widths at most; the cache is emptied when full (a frame needs a few hundred). */
const MAX_CACHED = 4000;

export class CanvasTextMeasure {
  private readonly ctx: OffscreenCanvasRenderingContext2D | null;
  private readonly cache = new Map<string, number>();
  private families = { sans: 'sans-serif', mono: 'monospace' };

  constructor() {
    this.ctx = typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(1, 1).getContext('2d') : null;
  }

  /** Reads the families from the CSS that styles `element` (the diagram's <svg>); call before each frame's placement. */
  useFontsOf(element: Element): void {
    const style = getComputedStyle(element);
    const next = { sans: style.fontFamily || 'sans-serif', mono: style.getPropertyValue('--mono').trim() || 'monospace' };
    if (next.sans === this.families.sans && next.mono === this.families.mono) return;
    this.families = next;
    this.cache.clear();
  }

  /** Forgets the widths measured (a font finished loading: the same family may measure differently). */
  forget(): void {
    this.cache.clear();
  }

  readonly measure: TextMeasure = (text: string, font: LabelFont): number => {
    const ctx = this.ctx;
    if (!ctx) return estimateTextWidth(text, font);
    const css = `${font.italic ? 'italic ' : ''}${font.weight} ${font.size}px ${this.families[font.family]}`;
    const key = `${css}\u0000${text}`;
    let width = this.cache.get(key);
    if (width === undefined) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      ctx.font = css;
      width = ctx.measureText(text).width;
      this.cache.set(key, width);
    }
    return width;
  };
}
