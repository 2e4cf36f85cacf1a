import { describe, expect, it } from 'vitest';
import { neighborSeries } from '../model/neighbor-series.ts';
import { neighborTrace } from '../test-support/neighbor-fixtures.ts';
import { NEIGHBOR_CHART_HEIGHT, neighborChartLayout } from './neighbor-chart-layout.ts';

describe('neighborChartLayout', () => {
  const series = neighborSeries(neighborTrace(), 300)!;
  const layout = neighborChartLayout(series, 600);

  it('marks the run\'s span, t0 to its last reply, right of the time before it', () => {
    expect(layout.height).toBe(NEIGHBOR_CHART_HEIGHT);
    expect(layout.run.x).toBeGreaterThan(layout.plot.left);
    expect(layout.run.x + layout.run.width).toBeCloseTo(layout.plot.right, 5);
  });

  it('one point per non-empty bucket; slower latencies higher up (log scale)', () => {
    expect(layout.points).toBe(series.buckets.filter((b) => b.count > 0).length);
    const ys = [...layout.maxPath.matchAll(/[ML][\d.]+,([\d.]+)/g)].map((m) => Number(m[1]));
    expect(Math.min(...ys.slice(-10))).toBeLessThan(Math.min(...ys.slice(0, 10))); // 400 µs during the run, 50 µs before
    expect(layout.yTicks.map((t) => t.label)).toContain('100 µs');
    expect(layout.xTicks.length).toBeGreaterThan(1);
  });

  it('breaks the line at empty buckets instead of joining across them', () => {
    const gappy = neighborChartLayout({ ...series, buckets: [{ fromUs: -100, toUs: 0, count: 1, avgUs: 10, maxUs: 10 }, { fromUs: 0, toUs: 100, count: 0, avgUs: 0, maxUs: 0 }, { fromUs: 100, toUs: 200, count: 1, avgUs: 10, maxUs: 10 }] }, 600);
    expect(gappy.maxPath.match(/M/g)).toHaveLength(2);
  });
});
