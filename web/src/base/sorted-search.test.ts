import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound, visibleRange } from './sorted-search.ts';

const times = Float64Array.from([0, 10, 10, 10, 25, 40, 40, 90]);

describe('binary search over sorted times', () => {
  it('finds the first index at or after / after a value', () => {
    expect(lowerBound(times, 10)).toBe(1);
    expect(upperBound(times, 10)).toBe(4);
    expect(lowerBound(times, -5)).toBe(0);
    expect(upperBound(times, 1000)).toBe(8);
    expect(lowerBound(times, 11)).toBe(4);
  });

  it('returns the closed visible range, equal times included at both ends', () => {
    expect(visibleRange(times, 10, 40)).toEqual({ start: 1, end: 7 });
    expect(visibleRange(times, 0, 90)).toEqual({ start: 0, end: 8 });
    expect(visibleRange(times, 41, 89)).toEqual({ start: 7, end: 7 });
    expect(visibleRange(times, 100, 200)).toEqual({ start: 8, end: 8 });
  });

  it('agrees with a linear scan on random data', () => {
    const data = Float64Array.from({ length: 500 }, () => Math.floor(Math.random() * 100)).sort();
    for (let k = 0; k < 50; k++) {
      const a = Math.random() * 110 - 5;
      const b = a + Math.random() * 40;
      const { start, end } = visibleRange(data, a, b);
      expect(end - start).toBe(data.filter((t) => t >= a && t <= b).length);
    }
  });

  it('handles empty input', () => {
    expect(visibleRange(new Float64Array(0), 0, 10)).toEqual({ start: 0, end: 0 });
  });
});
