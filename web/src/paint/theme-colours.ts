// The canvas cannot use CSS variables, so the dense painter asks here for the theme's colours as
// resolved values: app.css's --request, --reply, --ink, --execution, --muted and --other on <html>
// (or, in a <pipescope-player>, on the themed element inside its shadow root), read with getComputedStyle
// once per theme (cached per element by its data-theme and class, which is all that changes them) and
// falling back to paint/palette.ts's light values where no stylesheet applies (jsdom). `watchTheme` tells
// a controller to repaint when that element's data-theme or class changes.
import { PALETTE } from './palette.ts';

export interface CanvasColours {
  request: string;
  reply: string;
  ink: string;
  execution: string;
  muted: string;
  other: string;
}

/** The light theme's values, as palette.ts holds them. */
export const LIGHT_CANVAS_COLOURS: CanvasColours = {
  request: PALETTE.request,
  reply: PALETTE.reply,
  ink: PALETTE.ink,
  execution: PALETTE.execution,
  muted: PALETTE.muted,
  other: PALETTE.other,
};

const KEYS = Object.keys(LIGHT_CANVAS_COLOURS) as (keyof CanvasColours)[];

const cache = new WeakMap<Element, { key: string; colours: CanvasColours }>();

/** The current theme's colours for a canvas, from the CSS variables on `root` (<html> in the app). */
export function canvasColours(root: HTMLElement = document.documentElement): CanvasColours {
  const key = `${root.dataset['theme'] ?? ''}|${root.className}`;
  const cached = cache.get(root);
  if (cached?.key === key) return cached.colours;
  const style = getComputedStyle(root);
  const colours = { ...LIGHT_CANVAS_COLOURS };
  for (const k of KEYS) {
    const value = style.getPropertyValue(`--${k}`).trim();
    if (value) colours[k] = value;
  }
  cache.set(root, { key, colours });
  return colours;
}

/** Calls `onChange` after `root`'s (<html>'s) data-theme or class changes (a theme switch); returns the unsubscribe. */
export function watchTheme(onChange: () => void, root: HTMLElement = document.documentElement): () => void {
  if (typeof MutationObserver !== 'function') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(root, { attributes: true, attributeFilter: ['data-theme', 'class'] });
  return () => observer.disconnect();
}
