// What a wheel event over a diagram is for. The page is thousands of px tall and a diagram fills most of
// the viewport, so a plain wheel must scroll the page, never zoom: zooming takes Ctrl (⌘ on a Mac) with
// the wheel, which is also what browsers send for a trackpad pinch (a wheel event with ctrlKey), as map
// widgets and Perfetto do. A horizontal wheel (or Shift + wheel) pans through time while the diagram is
// zoomed in; unzoomed there is nothing to pan and the page keeps it. Pure: the input (d3-zoom) and the
// hint ask here and nowhere else.

/** The fields of a WheelEvent that decide what it does. */
export interface WheelLike {
  deltaX: number;
  deltaY: number;
  /** 0: px, 1: lines, 2: pages (WheelEvent.DOM_DELTA_*). */
  deltaMode: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}

export type WheelIntent =
  /** Ctrl/⌘ + wheel or a pinch: zoom about the pointer (d3-zoom, with zoomWheelExponent). */
  | { kind: 'zoom' }
  /** Zoomed in, a horizontal wheel: pan through time by `px` plot px (> 0: later). */
  | { kind: 'pan'; px: number }
  /** Anything else: the page's (it scrolls); vertical says whether it was a plain vertical wheel (the hint's cue). */
  | { kind: 'page'; vertical: boolean };

/** px per line and per page of a wheel in lines or pages (Firefox sends lines; 16 px is a line of body text). */
const LINE_PX = 16;
const PAGE_PX = 400;

/** A delta in px, whatever the event's unit. */
export function wheelPx(delta: number, deltaMode: number): number {
  return delta * (deltaMode === 1 ? LINE_PX : deltaMode === 2 ? PAGE_PX : 1);
}

/** zoomed: the diagram's zoom factor is above 1 (there is somewhere to pan to). */
export function wheelIntent(event: WheelLike, zoomed: boolean): WheelIntent {
  if (event.ctrlKey || event.metaKey) return { kind: 'zoom' };
  // Shift + wheel is a horizontal wheel; some platforms already turn it into deltaX, others leave it in deltaY.
  const horizontal = event.shiftKey && event.deltaX === 0 ? event.deltaY : Math.abs(event.deltaX) > Math.abs(event.deltaY) ? event.deltaX : 0;
  if (horizontal !== 0) return zoomed ? { kind: 'pan', px: wheelPx(horizontal, event.deltaMode) } : { kind: 'page', vertical: false };
  return { kind: 'page', vertical: event.deltaY !== 0 };
}

/**
 * How far a zooming wheel event zooms: the exponent of 2 (k × 2^exponent). d3-zoom's own rule (0.002 per px,
 * 0.05 per line, ×10 with Ctrl, which makes a pinch's small deltas brisk), capped at one doubling per event
 * so that one notch of a mouse wheel with Ctrl (~100 px, 2^2 uncapped) zooms 2×, as a map's does.
 */
export function zoomWheelExponent(event: WheelLike): number {
  const unit = event.deltaMode === 1 ? 0.05 : event.deltaMode === 2 ? 1 : 0.002;
  const exponent = -event.deltaY * unit * 10;
  return Math.max(-1, Math.min(1, exponent));
}

/** The key that makes the wheel zoom, by its name on the platform (navigator.platform): ⌘ on Apple's, Ctrl elsewhere. */
export function zoomModifier(platform: string): string {
  return /Mac|iPhone|iPad|iPod/i.test(platform) ? '⌘' : 'Ctrl';
}

/** The hint's words. */
export function zoomHintText(platform: string): string {
  return `${zoomModifier(platform)} + wheel to zoom`;
}
