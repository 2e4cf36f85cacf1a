// The canvas cannot use CSS variables, so the dense painter asks here for the theme's colours as
// resolved values: app.css's --request, --reply, --ink, --execution, --muted and --other on <html>,
// read with getComputedStyle once per theme (cached by <html>'s data-theme and class, which is all
// that changes them) and falling back to paint/palette.ts's light values where no stylesheet applies
// (jsdom). `watchTheme` tells a controller to repaint when <html>'s data-theme or class changes.
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

let cached: { key: string; colours: CanvasColours } | null = null;

/** The current theme's colours for a canvas, from the CSS variables on <html>. */
export function canvasColours(): CanvasColours {
  const root = document.documentElement;
  const key = `${root.dataset['theme'] ?? ''}|${root.className}`;
  if (cached?.key === key) return cached.colours;
  const style = getComputedStyle(root);
  const colours = { ...LIGHT_CANVAS_COLOURS };
  for (const k of KEYS) {
    const value = style.getPropertyValue(`--${k}`).trim();
    if (value) colours[k] = value;
  }
  cached = { key, colours };
  return colours;
}

/** Calls `onChange` after <html>'s data-theme or class changes (a theme switch); returns the unsubscribe. */
export function watchTheme(onChange: () => void): () => void {
  if (typeof MutationObserver !== 'function') return () => {};
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
  return () => observer.disconnect();
}
