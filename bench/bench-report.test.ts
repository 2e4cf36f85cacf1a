import { describe, expect, it } from 'vitest';
import { formatFindings, formatSpread, met, type Finding } from './bench-report.ts';

const finding = (median: number, bound: 'at most' | 'at least', value: number): Finding => ({
  name: 'x', unit: 'ratio', spread: { median, min: median, max: median }, goal: { bound, value }, how: 'h',
});

describe('met', () => {
  it('judges the median against the goal, bounds included', () => {
    expect(met(finding(1.05, 'at most', 1.05))).toBe(true);
    expect(met(finding(1.06, 'at most', 1.05))).toBe(false);
    expect(met(finding(0.5, 'at least', 0.5))).toBe(true);
    expect(met(finding(0.49, 'at least', 0.5))).toBe(false);
  });

  it('has no verdict for a figure measured for context', () => {
    expect(met({ ...finding(3, 'at most', 1), goal: null })).toBeNull();
  });
});

describe('formatSpread', () => {
  it('prints the median with its unit and the range in the same unit', () => {
    expect(formatSpread({ median: 1.0512, min: 0.97, max: 1.2 }, 'ratio')).toBe('1.05× [0.97–1.20]');
    expect(formatSpread({ median: 974.1, min: 8.5, max: 1263.94 }, 'ms')).toBe('974.1 ms [8.50–1263.9]');
    expect(formatSpread({ median: 7, min: 7, max: 7 }, 'bytes')).toBe('7.0 B');
    expect(formatSpread({ median: 0.0183, min: 0.0183, max: 0.0183 }, 'bytes')).toBe('0.018 B');
    expect(formatSpread({ median: 23.4, min: 8.25, max: 140 }, 'us')).toBe('23 µs [8.3–140]');
    expect(formatSpread({ median: 19, min: 19, max: 19 }, 'count')).toBe('19');
  });
});

describe('formatFindings', () => {
  it('lists every finding with its goal and verdict, then how each was measured', () => {
    const text = formatFindings([{ ...finding(0.28, 'at least', 0.5), name: 'raw ÷ redis-benchmark', how: 'ops/s side by side' }]);
    expect(text).toMatch(/^measured\s+median \[min–max\]\s+goal$/m);
    expect(text).toMatch(/^raw ÷ redis-benchmark\s+0\.28×\s+≥ 0\.50×\s+MISSED$/m);
    expect(text).toContain('1. raw ÷ redis-benchmark: ops/s side by side');
  });

  it('lists a figure without a goal as info', () => {
    const text = formatFindings([{ ...finding(1.2, 'at most', 1.5), name: 'ioredis p50 ÷ avg', goal: null }]);
    expect(text).toMatch(/^ioredis p50 ÷ avg\s+1\.20×\s+—\s+info$/m);
  });
});
