// Golden SVGs of the memory plots under a run's diagram: a chunked fixture run with memory samples, laid
// out and painted in jsdom the way MemoryPlotController.paint does (the diagram's unzoomed time window →
// memoryPlotLayout → paintMemoryPlot), one plot per panel of MemoryChartView, compared with
// web/src/paint/__goldens__/memory-*.svg (test-support/svg-golden.ts; UPDATE_GOLDENS=1 accepts a change).
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { memoryGaps } from '../format/memory-text.ts';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import { memoryPlotGeometry, memoryPlotLayout } from '../layout/memory-chart-layout.ts';
import { timeScale, visibleTimeRange } from '../layout/time-scale-layout.ts';
import { memorySeries, type MemorySeriesKey } from '../model/memory-series.ts';
import { expectGoldenMarkup } from '../test-support/svg-golden.ts';
import { chunkedTrace, memorySamples } from '../test-support/trace-fixtures.ts';
import { createMemoryPlotLayers, paintMemoryPlot } from './memory-plot-painter.ts';

/** A panel's plot width in CSS px, as in the e2e viewport. */
const WIDTH = 640;

/** 20 PINGs in pipelines of 5, 2 ms round trips; samples every 1 ms asked, the client's missing 1–7 ms (a gap: > 5 intervals). */
function runWithMemory(): TraceDocument {
  const server = [0, 2000, 4000, 6000, 8000];
  const client = [0, 1000, 7000, 8000];
  return chunkedTrace(20, 5, 2000, 20, 'PING', memorySamples(client, server, 1024 * 1024, 1));
}

/** One plot: the series of one MemoryChartView panel, on the window the diagram above shows. */
function paintPlot(doc: TraceDocument, keys: MemorySeriesKey[], side: 'server' | 'client', axis: boolean): SVGSVGElement {
  const memory = doc.memory!;
  const gaps = memoryGaps(memory, doc.totals.durationUs);
  const domainEndUs = doc.totals.durationUs;
  const { fromUs, toUs } = visibleTimeRange(timeScale(domainEndUs, diagramGeometry(WIDTH)));
  const g = memoryPlotGeometry(WIDTH, axis);
  const layers = createMemoryPlotLayers('golden');
  const input = { series: keys.map((k) => memorySeries(memory, k)), gaps: gaps[side], thresholdUs: gaps.thresholdUs, fromUs, toUs };
  paintMemoryPlot(layers, memoryPlotLayout(input, g), g);
  return layers.svg.node()!;
}

describe('memory plot SVG goldens', () => {
  const doc = runWithMemory();

  it('Redis, the run’s connection: tot-mem, qbuf and omem, the main series’ (tot-mem) peak ringed, no time axis', () => {
    const svg = paintPlot(doc, ['totMem', 'qbuf', 'omem'], 'server', false);
    expect(svg.querySelectorAll('[data-testid=memory-line]')).toHaveLength(3);
    expect(svg.querySelector('[data-series=totMem]')!.getAttribute('data-points')).toBe('5');
    expect(svg.querySelectorAll('circle.peak.series-totMem')).toHaveLength(1);
    expect(svg.querySelectorAll('.memory-axis.x text')).toHaveLength(0);
    expectGoldenMarkup(svg, import.meta.url, 'memory-server-connection.svg');
  });

  it('Redis, the whole server: used_memory with the time axis', () => {
    const svg = paintPlot(doc, ['usedMemory'], 'server', true);
    expect(svg.querySelectorAll('.memory-axis.x text').length).toBeGreaterThan(1);
    expectGoldenMarkup(svg, import.meta.url, 'memory-server-used.svg');
  });

  it('the client: heap and RSS, the unsampled stretch hatched', () => {
    const svg = paintPlot(doc, ['heapUsed', 'rss'], 'client', true);
    expect(svg.querySelectorAll('rect.memory-gap')).toHaveLength(1);
    expectGoldenMarkup(svg, import.meta.url, 'memory-client.svg');
  });

  it('the client with its baseline taken before t0: the "before t0" strip, the baseline level in it, the run’s line after t0', () => {
    // The 8 ms run of runWithMemory, sampled every 1 ms asked (the client's 2–6 ms missing); the baseline 1.5 ms before t0.
    const withBaseline = chunkedTrace(20, 5, 2000, 20, 'PING', memorySamples([-1500, 1000, 2000, 6000, 7000, 8000], [-1400, 2000, 4000], 1024 * 1024, 1));
    const svg = paintPlot(withBaseline, ['heapUsed', 'rss'], 'client', true);
    expect(svg.querySelectorAll('[data-testid=memory-baseline]')).toHaveLength(1);
    expect(svg.querySelector('.memory-axis.x text.baseline')?.textContent).toBe('−1.5 ms');
    expect(svg.querySelector('.series-heapUsed .memory-baseline-level')?.getAttribute('d')).toMatch(/^M64,[\d.]+H110$/);
    expectGoldenMarkup(svg, import.meta.url, 'memory-client-baseline.svg');
  });
});
