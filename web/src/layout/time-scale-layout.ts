// Maps trace time (µs) to plot y (CSS px) for one diagram: the base d3 linear scale over the time
// domain, then the y-only zoom (screen y = k · base y + ty, as d3-zoom's transform.applyY). Also the
// axis ticks. Pure: no DOM, unit-tested in node.
import { scaleLinear, type ScaleLinear } from 'd3';
import { formatTickUs } from '../format/number-format.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';

/** The y-only part of a d3-zoom transform. k ≥ 1 zooms in; ty is in plot px. */
export interface TimeZoom {
  k: number;
  ty: number;
}

export const IDENTITY_ZOOM: TimeZoom = { k: 1, ty: 0 };

export type TimeScale = ScaleLinear<number, number>;

/** domainEndUs: shared → the longest displayed run's end; own → this run's end. */
export function timeScale(domainEndUs: number, geometry: DiagramGeometry, zoom: TimeZoom = IDENTITY_ZOOM): TimeScale {
  const { plotTop, plotBottom } = geometry;
  const base = scaleLinear().domain([0, Math.max(1, domainEndUs)]).range([plotTop, plotBottom]);
  const k = zoom.k > 0 ? zoom.k : 1;
  // The times that the zoomed view shows at the plot's top and bottom edges.
  const from = base.invert((plotTop - zoom.ty) / k);
  const to = base.invert((plotBottom - zoom.ty) / k);
  return scaleLinear().domain([from, to]).range([plotTop, plotBottom]);
}

/** The closed time interval [fromUs, toUs] visible in the plot. */
export function visibleTimeRange(scale: TimeScale): { fromUs: number; toUs: number } {
  const [fromUs, toUs] = scale.domain() as [number, number];
  return { fromUs, toUs };
}

/** How far one may zoom in: down to about 0.05 µs per pixel, and at least 50×. */
export function maxZoom(domainEndUs: number, geometry: DiagramGeometry): number {
  const plotHeight = geometry.plotBottom - geometry.plotTop;
  return Math.max(50, domainEndUs / plotHeight / 0.05);
}

export interface AxisTick {
  y: number;
  label: string;
}

export function axisTicks(scale: TimeScale, approximateCount = 8): AxisTick[] {
  const ticks = scale.ticks(approximateCount).filter((us) => us >= 0);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : undefined;
  return ticks.map((us) => ({ y: scale(us), label: formatTickUs(us, step) }));
}

/**
 * The domain end for a run still streaming: the next of 1, 2, 5 × 10^k µs at or past its latest event,
 * so a growing diagram keeps its scale for a while (arrows stay put) and rescales in a few steps, not
 * with every frame.
 */
export function growingDomainEndUs(endUs: number): number {
  if (!(endUs > 1)) return 1;
  const decade = 10 ** Math.floor(Math.log10(endUs));
  for (const step of [1, 2, 5, 10]) if (step * decade >= endUs) return step * decade;
  return 10 * decade;
}
