// Lays out the neighbour's latency over time (model/neighbor-series.ts) as lines over a time axis,
// with the run's span marked. Pure, unit-tested. Coordinate space: CSS px relative to the chart's <svg>.
//   send time → x: d3 scaleLinear over [series.fromUs, series.toUs] (µs since t0; before t0 is left of
//                  the run's span) onto [LEFT, width − RIGHT].
//   latency → y:   d3 scaleLog over [min(10 µs, fastest), slowest] onto [bottom, TOP]: a 50 µs read and
//                  a 50 ms stall both stay readable.
// Each bucket is a point at its middle; an empty bucket breaks the lines (nothing is interpolated).
import { scaleLinear, scaleLog } from 'd3';
import { formatTickUs, formatUs } from '../format/number-format.ts';
import type { NeighborSeries } from '../model/neighbor-series.ts';

export const NEIGHBOR_CHART_HEIGHT = 120;
const LEFT = 52;
const RIGHT = 12;
const TOP = 8;
const AXIS = 18;

export interface NeighborChartLayout {
  width: number;
  height: number;
  /** The run's span, t0 to its last reply. */
  run: { x: number; width: number };
  /** SVG path data: each bucket's slowest command, and its average. */
  maxPath: string;
  avgPath: string;
  /** Points drawn (non-empty buckets). */
  points: number;
  xTicks: { x: number; label: string }[];
  yTicks: { y: number; label: string }[];
  plot: { top: number; bottom: number; left: number; right: number };
}

export function neighborChartLayout(series: NeighborSeries, width: number): NeighborChartLayout {
  const bottom = NEIGHBOR_CHART_HEIGHT - AXIS;
  const x = scaleLinear().domain([series.fromUs, Math.max(series.toUs, series.fromUs + 1)]).range([LEFT, Math.max(LEFT + 1, width - RIGHT)]);
  const low = Math.max(1, Math.min(10, series.minLatencyUs));
  const y = scaleLog().domain([low, Math.max(series.maxLatencyUs, low * 10)]).range([bottom, TOP]).clamp(true);
  const path = (value: (b: NeighborSeries['buckets'][number]) => number) => {
    let d = '';
    let open = false;
    for (const bucket of series.buckets) {
      if (bucket.count === 0) {
        open = false;
        continue;
      }
      const px = x((bucket.fromUs + bucket.toUs) / 2).toFixed(1);
      const py = y(Math.max(low, value(bucket))).toFixed(1);
      d += `${open ? 'L' : 'M'}${px},${py}`;
      open = true;
    }
    return d;
  };
  const runX = x(0);
  const xTicks = x.ticks(Math.max(2, Math.floor(width / 110)));
  const step = xTicks.length > 1 ? xTicks[1]! - xTicks[0]! : undefined;
  return {
    width,
    height: NEIGHBOR_CHART_HEIGHT,
    run: { x: runX, width: Math.max(1, x(series.runToUs) - runX) },
    maxPath: path((b) => b.maxUs),
    avgPath: path((b) => b.avgUs),
    points: series.buckets.filter((b) => b.count > 0).length,
    xTicks: xTicks.map((t) => ({ x: x(t), label: formatTickUs(t, step) })),
    yTicks: y.ticks(3).filter((t) => Number.isInteger(Math.log10(t))).map((t) => ({ y: y(t), label: formatUs(t) })),
    plot: { top: TOP, bottom, left: LEFT, right: width - RIGHT },
  };
}
