// Paints one memory plot's <svg> from its layout (layout/memory-chart-layout.ts): grid and byte ticks,
// hatched bands where no samples were taken, the "before t0" strip of the baseline samples (when there
// are any; data-testid=memory-baseline), one line, one baseline level and one dot path per series
// (class series-<key>, data-testid=memory-line, data-points = samples drawn), a ring on the main
// series' peak and, on the plot that carries it, the time axis. Only loops over what layout produced.
import { select, type Selection } from 'd3';
import type { MemoryPlotGeometry, MemoryPlotLayout } from '../layout/memory-chart-layout.ts';
import { svgElement } from './sequence-svg-painter.ts';

type G = Selection<SVGGElement, unknown, null, undefined>;

export interface MemoryPlotLayers {
  svg: Selection<SVGSVGElement, unknown, null, undefined>;
  clipRect: Selection<SVGRectElement, unknown, null, undefined>;
  grid: G;
  gaps: G;
  baseline: G;
  series: G;
  peak: G;
  yAxis: G;
  xAxis: G;
  /** Inside the time axis, before its ticks: the baseline's label keeps one place in the DOM order. */
  xBaselineLabel: G;
  hatchId: string;
}

export function createMemoryPlotLayers(idPrefix: string): MemoryPlotLayers {
  const svg = select(svgElement('svg')).attr('class', 'memory-plot-svg');
  const defs = svg.append('defs');
  const clipId = `${idPrefix}-clip`;
  const hatchId = `${idPrefix}-hatch`;
  const clipRect = defs.append('clipPath').attr('id', clipId).append('rect');
  defs
    .append('pattern')
    .attr('id', hatchId)
    .attr('patternUnits', 'userSpaceOnUse')
    .attr('width', 6)
    .attr('height', 6)
    .attr('patternTransform', 'rotate(45)')
    .append('line')
    .attr('class', 'memory-hatch')
    .attr('x1', 0)
    .attr('y1', 0)
    .attr('x2', 0)
    .attr('y2', 6);
  const grid = svg.append('g').attr('class', 'memory-grid');
  const yAxis = svg.append('g').attr('class', 'memory-axis y');
  const xAxis = svg.append('g').attr('class', 'memory-axis x');
  const xBaselineLabel = xAxis.append('g').attr('class', 'memory-baseline-label');
  const plot = svg.append('g').attr('clip-path', `url(#${clipId})`);
  const gaps = plot.append('g').attr('class', 'memory-gaps');
  const baseline = plot.append('g').attr('class', 'memory-baseline');
  const series = plot.append('g').attr('class', 'memory-series');
  const peak = plot.append('g').attr('class', 'memory-peak-mark');
  return { svg, clipRect, grid, gaps, baseline, series, peak, yAxis, xAxis, xBaselineLabel, hatchId };
}

export function paintMemoryPlot(layers: MemoryPlotLayers, layout: MemoryPlotLayout, g: MemoryPlotGeometry): void {
  const { svg } = layers;
  svg.attr('width', g.width).attr('height', g.height).attr('viewBox', `0 0 ${g.width} ${g.height}`);
  // A little room above and below the plot so dots and the peak ring on its edges are not cut.
  layers.clipRect.attr('x', g.left - 4).attr('y', g.top - 6).attr('width', g.right - g.left + 8).attr('height', g.bottom - g.top + 10);

  layers.grid
    .selectAll('line.y')
    .data(layout.yTicks)
    .join('line')
    .attr('class', (t) => (t.at === g.bottom ? 'y base' : 'y'))
    .attr('x1', g.left)
    .attr('x2', g.right)
    .attr('y1', (t) => t.at)
    .attr('y2', (t) => t.at);
  layers.grid
    .selectAll('line.x')
    .data(layout.xTicks)
    .join('line')
    .attr('class', 'x')
    .attr('x1', (t) => t.at)
    .attr('x2', (t) => t.at)
    .attr('y1', g.top)
    .attr('y2', g.bottom);

  layers.yAxis
    .selectAll('text')
    .data(layout.yTicks)
    .join('text')
    .attr('x', g.left - 6)
    .attr('y', (t) => t.at)
    .attr('dy', '0.32em')
    .text((t) => t.label);
  layers.xAxis
    .selectChildren('text')
    .data(g.axis ? layout.xTicks : [])
    .join('text')
    .attr('x', (t) => t.at)
    .attr('y', g.bottom + 15)
    .text((t) => t.label);

  layers.gaps
    .selectAll('rect')
    .data(layout.gaps)
    .join('rect')
    .attr('class', 'memory-gap')
    .attr('x', (d) => d.x0)
    .attr('width', (d) => d.x1 - d.x0)
    .attr('y', g.top)
    .attr('height', g.bottom - g.top)
    .attr('fill', `url(#${layers.hatchId})`);

  // The strip of samples taken before t0: a band across the plot's height, its label (the baseline's time) on the time axis.
  const strip = layout.baseline ? [layout.baseline] : [];
  layers.baseline
    .selectAll('rect')
    .data(strip)
    .join('rect')
    .attr('class', 'memory-baseline-band')
    .attr('data-testid', 'memory-baseline')
    .attr('x', (d) => d.x0)
    .attr('width', (d) => d.x1 - d.x0)
    .attr('y', g.top)
    .attr('height', g.bottom - g.top);
  layers.xBaselineLabel
    .selectAll('text.baseline')
    .data(g.axis ? strip : [])
    .join('text')
    .attr('class', 'baseline')
    .attr('x', (d) => (d.x0 + d.x1) / 2)
    .attr('y', g.bottom + 15)
    .text((d) => d.label);

  layers.series
    .selectAll('g')
    .data(layout.series, (d) => (d as MemoryPlotLayout['series'][number]).key)
    .join((enter) => {
      const group = enter.append('g');
      group.append('path').attr('class', 'memory-line').attr('data-testid', 'memory-line');
      group.append('path').attr('class', 'memory-baseline-level');
      group.append('path').attr('class', 'memory-dots');
      return group;
    })
    .attr('class', (d) => `series series-${d.key}`)
    .each(function (d) {
      const group = select(this);
      group.select('path.memory-line').attr('d', d.line || null).attr('data-points', d.points).attr('data-series', d.key);
      group.select('path.memory-baseline-level').attr('d', d.baseline || null);
      group.select('path.memory-dots').attr('d', d.dots || null);
    });

  const peaks = layout.series.flatMap((s) => (s.peak ? [{ key: s.key, ...s.peak }] : []));
  layers.peak
    .selectAll('circle')
    .data(peaks)
    .join('circle')
    .attr('class', (d) => `peak series-${d.key}`)
    .attr('cx', (d) => d.x)
    .attr('cy', (d) => d.y)
    .attr('r', 4.5);
}
