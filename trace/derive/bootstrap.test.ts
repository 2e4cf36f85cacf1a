import { describe, expect, it } from 'vitest';
import { bootstrapMedian, median } from './bootstrap.ts';

describe('bootstrapMedian', () => {
  it('holds the median inside its interval, the same every time, and narrower with more data', () => {
    const few = Array.from({ length: 20 }, (_, i) => 10 + ((i * 7) % 11));
    const many = Array.from({ length: 2000 }, (_, i) => 10 + ((i * 7) % 11));
    const a = bootstrapMedian(few);
    expect(a).toEqual(bootstrapMedian(few));
    expect(a.low).toBeLessThanOrEqual(a.median);
    expect(a.high).toBeGreaterThanOrEqual(a.median);
    const b = bootstrapMedian(many);
    expect(b.high - b.low).toBeLessThanOrEqual(a.high - a.low);
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(bootstrapMedian([]).median).toBeNaN();
  });
});
