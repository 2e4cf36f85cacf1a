import { describe, expect, it } from 'vitest';
import { formatCount, formatRate, formatUs } from './number-format.ts';
import { rangeText, spreadLine, spreadText } from './spread-text.ts';

describe('spreadText', () => {
  it('reads median [min–max], the unit written once when both ends share it', () => {
    expect(spreadText({ median: 1190, min: 1100, max: 1420 }, formatUs)).toEqual({ median: '1.19 ms', range: '[1.1–1.42 ms]' });
    expect(spreadLine({ median: 1190, min: 845, max: 1420 }, formatUs)).toBe('1.19 ms [845 µs–1.42 ms]');
    expect(spreadLine({ median: 154_000, min: 150_321, max: 160_000 }, formatRate)).toBe('154,000 ops/s [150,321–160,000 ops/s]');
    expect(spreadLine({ median: 11, min: 10, max: 12 }, formatCount)).toBe('11 [10–12]');
  });

  it('shows the figure alone when every repeat reads the same (or there is one)', () => {
    expect(spreadText({ median: 10, min: 10, max: 10 }, formatCount)).toEqual({ median: '10', range: null });
    expect(spreadLine({ median: 1190, min: 1189.8, max: 1190.2 }, formatUs)).toBe('1.19 ms');
  });

  it('keeps both units when they differ', () => {
    expect(rangeText('999 µs', '1 ms')).toBe('[999 µs–1 ms]');
    expect(rangeText('1', '2')).toBe('[1–2]');
  });
});
