import { describe, expect, it } from 'vitest';
import { neighborTrace } from '../test-support/neighbor-fixtures.ts';
import { pipelineTrace } from '../test-support/trace-fixtures.ts';
import { neighborSeries } from './neighbor-series.ts';

describe('neighborSeries', () => {
  it('spans the neighbour\'s first command (before t0) to the run\'s end, in at most maxBuckets buckets', () => {
    const series = neighborSeries(neighborTrace(), 50)!;
    expect(series.fromUs).toBe(-20_000);
    expect(series.toUs).toBe(500); // the run's last reply is later than the neighbour's last send (495 µs)
    expect(series.runToUs).toBe(500);
    expect(series.buckets).toHaveLength(50);
    expect(series.commands).toBe(300);
    expect(series.minLatencyUs).toBe(50);
    expect(series.maxLatencyUs).toBe(400);
    expect(series.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(300);
  });

  it('never more buckets than commands; null without a neighbour', () => {
    expect(neighborSeries(neighborTrace(), 10_000)!.buckets).toHaveLength(300);
    expect(neighborSeries(pipelineTrace(10), 50)).toBeNull();
  });
});
