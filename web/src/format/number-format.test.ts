import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatRate, formatRatio, formatTickUs, formatUs, plural } from './number-format.ts';

describe('formatUs', () => {
  it('picks µs, ms or s and keeps three significant digits', () => {
    expect(formatUs(0)).toBe('0 µs');
    expect(formatUs(845)).toBe('845 µs');
    expect(formatUs(999)).toBe('999 µs');
    expect(formatUs(1040)).toBe('1.04 ms');
    expect(formatUs(64_700)).toBe('64.7 ms');
    expect(formatUs(842_670)).toBe('843 ms');
    expect(formatUs(1_443_000)).toBe('1.44 s');
    expect(formatUs(12.5)).toBe('12.5 µs');
  });
  it('says so when the value is not a number', () => {
    expect(formatUs(Number.NaN)).toBe('—');
  });
  it('labels axis zero plainly', () => {
    expect(formatTickUs(0)).toBe('0');
    expect(formatTickUs(1500)).toBe('1.5 ms');
  });
  it('gives zoomed-in ticks enough decimals to tell them apart', () => {
    expect(formatTickUs(39_210, 10)).toBe('39.21 ms');
    expect(formatTickUs(39_220, 10)).toBe('39.22 ms');
    expect(formatTickUs(2_000_000, 2_000_000)).toBe('2 s');
    expect(formatTickUs(39_200, 200)).toBe('39.2 ms');
    expect(formatTickUs(500, 100)).toBe('500 µs');
    expect(formatTickUs(12.5, 0.5)).toBe('12.5 µs');
    expect(formatTickUs(1_250_000, 50_000)).toBe('1.25 s');
  });
});

describe('counts, rates, bytes and ratios', () => {
  it('groups thousands', () => {
    expect(formatCount(100_000)).toBe('100,000');
    expect(formatRate(154_679.4)).toBe('154,679 ops/s');
  });
  it('uses binary units for bytes', () => {
    expect(formatBytes(560)).toBe('560 B');
    expect(formatBytes(2048)).toBe('2 KiB');
    expect(formatBytes(1024 * 1024 * 1.5)).toBe('1.5 MiB');
  });
  it('never rounds a small ratio to zero', () => {
    expect(formatRatio(1)).toBe('1');
    expect(formatRatio(0.1)).toBe('0.1');
    expect(formatRatio(1 / 100_000)).toBe('0.00001');
    expect(formatRatio(74 / 100_000)).toBe('0.00074');
    expect(formatRatio(0)).toBe('0');
  });
  it('pluralises with the count', () => {
    expect(plural(1, 'write')).toBe('1 write');
    expect(plural(10, 'write')).toBe('10 writes');
    expect(plural(2, 'reply', 'replies')).toBe('2 replies');
  });
});

describe('plural, for every count the screen reads', () => {
  it('says "1 write" and "2 writes", with an irregular plural where given', () => {
    expect(plural(1, 'write')).toBe('1 write');
    expect(plural(2, 'write')).toBe('2 writes');
    expect(plural(0, 'reply', 'replies')).toBe('0 replies');
    expect(plural(10_000, 'command')).toBe('10,000 commands');
  });
});
