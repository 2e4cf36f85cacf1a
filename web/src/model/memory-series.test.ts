import { describe, expect, it } from 'vitest';
import { memorySamples } from '../test-support/trace-fixtures.ts';
import { gapThresholdUs, memoryPeak, memorySeries, sampleGaps, seriesPeak } from './memory-series.ts';

const MiB = 1024 * 1024;

describe('memory series', () => {
  const memory = memorySamples([0, 10_000, 20_000], [400, 10_400], MiB);

  it('takes one column of times and one of bytes per quantity, Redis’s or the client’s', () => {
    expect(memorySeries(memory, 'heapUsed')).toEqual({ key: 'heapUsed', atUs: [0, 10_000, 20_000], bytes: [10 * MiB, 11 * MiB, 12 * MiB] });
    expect(memorySeries(memory, 'totMem')).toEqual({ key: 'totMem', atUs: [400, 10_400], bytes: [20 * 1024, 21 * 1024] });
    expect(memorySeries(memory, 'omem').bytes).toEqual([0, 0]);
  });

  it('finds each series’ peak, the first one on a tie, and none without samples', () => {
    expect(memoryPeak(memory, 'rss')).toEqual({ bytes: 32 * MiB, atUs: 20_000 });
    expect(memoryPeak(memory, 'omem')).toEqual({ bytes: 0, atUs: 400 });
    expect(seriesPeak({ key: 'rss', atUs: [], bytes: [] })).toBeNull();
  });

  it('finds stretches without samples longer than 5 intervals: between samples, before the first, after the last', () => {
    expect(gapThresholdUs(memory)).toBe(50_000);
    expect(sampleGaps([0, 10_000, 20_000], 50_000, 60_000)).toEqual([]);
    expect(sampleGaps([0, 10_000, 1_400_000, 1_410_000], 50_000, 1_420_000)).toEqual([{ fromUs: 10_000, toUs: 1_400_000 }]);
    expect(sampleGaps([200_000, 210_000], 50_000, 400_000)).toEqual([
      { fromUs: 0, toUs: 200_000 },
      { fromUs: 210_000, toUs: 400_000 },
    ]);
    expect(sampleGaps([], 50_000, 400_000)).toEqual([{ fromUs: 0, toUs: 400_000 }]);
  });

  it('counts a baseline taken before t0 as the level at t0: no gap before t0, none from it to the first sample if close', () => {
    // The baseline 80 ms before t0, the next sample 30 ms after it: no gap (the time before t0 is not the run's).
    expect(sampleGaps([-80_000, 30_000, 40_000], 50_000, 60_000)).toEqual([]);
    // The next sample only 200 ms after t0: a gap from t0, not from the baseline.
    expect(sampleGaps([-80_000, 200_000], 50_000, 210_000)).toEqual([{ fromUs: 0, toUs: 200_000 }]);
    // Only the baseline: the whole run unsampled after it.
    expect(sampleGaps([-500], 50_000, 400_000)).toEqual([{ fromUs: 0, toUs: 400_000 }]);
  });
});
