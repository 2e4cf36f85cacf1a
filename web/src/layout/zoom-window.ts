// Converts between the shared zoom (TimeZoom: k and ty in plot px, time-scale-layout.ts) and the µs
// window it shows, so a link can carry the window (zoom=<fromUs>-<toUs>) rather than pixels that depend
// on the timeline's length. The window is that of the shared time axis, [0, domainEndUs] with domainEndUs
// the longest run shown; with each run on its own scale, every diagram shows the same share of its own
// timeline. Plot px are the diagram's (diagram-geometry.ts: plotTop…plotBottom, the same at every width).
// Pure, unit-tested.
import { diagramGeometry, type DiagramGeometry } from './diagram-geometry.ts';
import { IDENTITY_ZOOM, maxZoom, timeScale, visibleTimeRange, type TimeZoom } from './time-scale-layout.ts';

export interface UsWindow {
  fromUs: number;
  toUs: number;
}

/** The diagram's plot, whose top and bottom do not depend on the width. */
const PLOT: DiagramGeometry = diagramGeometry(600);

/** Within this of k = 1 (and ty = 0) the zoom is the whole timeline. */
const UNZOOMED_EPSILON = 1e-6;

export function isUnzoomed(zoom: TimeZoom): boolean {
  return Math.abs(zoom.k - 1) < UNZOOMED_EPSILON && Math.abs(zoom.ty) < UNZOOMED_EPSILON * 1000;
}

/** The µs window a zoom shows on a timeline of domainEndUs; null when it shows the whole timeline. */
export function windowOfZoom(zoom: TimeZoom, domainEndUs: number, geometry: DiagramGeometry = PLOT): UsWindow | null {
  if (isUnzoomed(zoom)) return null;
  return visibleTimeRange(timeScale(domainEndUs, geometry, zoom));
}

/**
 * The zoom that shows `window` on a timeline of domainEndUs, kept inside what the diagrams allow: the
 * window is clipped to [0, domainEndUs], and one narrower than the deepest zoom (maxZoom) is widened
 * about its centre. null window, or one that covers the timeline: no zoom.
 */
export function zoomOfWindow(window: UsWindow | null, domainEndUs: number, geometry: DiagramGeometry = PLOT): TimeZoom {
  const end = Math.max(1, domainEndUs);
  if (!window) return IDENTITY_ZOOM;
  const from = Math.max(0, Math.min(window.fromUs, end));
  const to = Math.max(0, Math.min(window.toUs, end));
  if (!(to > from)) return IDENTITY_ZOOM;
  const k = Math.min(maxZoom(end, geometry), end / (to - from));
  if (k <= 1) return IDENTITY_ZOOM;
  const width = end / k;
  const start = Math.min(Math.max(0, (from + to) / 2 - width / 2), end - width);
  const { plotTop, plotBottom } = geometry;
  const baseY = plotTop + (start / end) * (plotBottom - plotTop);
  return { k, ty: plotTop - k * baseY };
}
