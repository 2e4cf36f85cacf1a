import { describe, expect, it } from 'vitest';
import { latencyHistogram } from '../../../trace/derive/latency-stats.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { histogramDomain, latencyHistogramLayout } from './latency-histogram-layout.ts';

describe('latency histogram layout', () => {
  // Sequential: every latency 100 µs (bucket 20). Pipeline of 10 read at 500 µs: 490 µs (bucket 26).
  const seq = latencyHistogram(sequentialTrace(10, 100));
  const pipe = latencyHistogram(pipelineTrace(10, 10, 10, 500));

  it('shares one bucket range across the runs compared', () => {
    expect(histogramDomain([seq, pipe])).toEqual({ firstIndex: 20, lastIndex: 26, maxCount: 10 });
    expect(histogramDomain([[], seq])).toEqual({ firstIndex: 20, lastIndex: 20, maxCount: 10 });
    expect(histogramDomain([])).toEqual({ firstIndex: 0, lastIndex: 0, maxCount: 0 });
  });

  it('puts the same latency at the same x in every panel, bar heights by count', () => {
    const domain = histogramDomain([seq, pipe]);
    // 7 buckets over [30, 730): 100 px each.
    const a = latencyHistogramLayout(seq, domain, 742);
    const b = latencyHistogramLayout(pipe, domain, 742);
    expect(a.bars).toEqual([{ x: 30.5, width: 99, y: 6, height: 40, count: 10, fromUs: 100, toUs: 10 ** 2.1 }]);
    expect(b.bars[0]).toMatchObject({ x: 630.5, width: 99, count: 10 });
    expect(a.maxCount).toBe(10);
    // Under a decade and a half: 1-2-5 ticks, each at its exact latency (100 µs at bucket 20's left edge).
    expect(a.ticks.map((t) => t.label)).toEqual(['100 µs', '200 µs', '500 µs']);
    expect(a.ticks[0]!.x).toBe(30);
    expect(a.ticks[1]!.x).toBeCloseTo(30 + 100 * 10 * Math.log10(2), 1);
  });

  it('ticks decades over a wide range and skips empty buckets', () => {
    const wide = { firstIndex: 0, lastIndex: 39 }; // 1 µs to 10 ms
    const layout = latencyHistogramLayout(seq, wide, 442);
    expect(layout.ticks.map((t) => t.label)).toEqual(['1 µs', '10 µs', '100 µs', '1 ms', '10 ms']);
    expect(layout.bars).toHaveLength(1);
  });

  it('leaves room for a five-digit count label, and the same left edge in every panel', () => {
    const big = latencyHistogram(pipelineTrace(12_772, 12_772, 12_772, 500));
    const domain = histogramDomain([seq, big]);
    const a = latencyHistogramLayout(seq, domain, 742);
    const b = latencyHistogramLayout(big, domain, 742);
    expect(b.maxCount).toBe(12_772);
    // "12,772": 6 characters of ~6 px, right-aligned 5 px left of the plot, need the plot to start past 41 px.
    expect(b.left).toBeGreaterThanOrEqual(47);
    expect(a.left).toBe(b.left);
    expect(a.ticks[0]!.x).toBe(b.ticks[0]!.x);
  });
});
