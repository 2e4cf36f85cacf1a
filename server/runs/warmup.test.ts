import { describe, expect, it } from 'vitest';
import { WARMUP_BUDGET_US, warmupSize } from './warmup.ts';

describe('warmupSize', () => {
  it('sequential: one command per round trip within the budget', () => {
    expect(warmupSize('sequential', 10_000, 10_000, 1000, 100)).toBe(1000);
    expect(warmupSize('sequential', 10_000, 10_000, 1000, 20_000)).toBe(WARMUP_BUDGET_US / 20_000);
  });

  it('sequential GET-COMPUTE-SET: two round trips per operation', () => {
    expect(warmupSize('sequential', 100, 100, 100, 20_000, 'GET-COMPUTE-SET')).toBe(5);
    expect(warmupSize('sequential', 100, 100, 100, 500_000, 'GET-COMPUTE-SET')).toBe(1);
  });

  it.each(['pipeline', 'multi', 'eval', 'evalsha', 'multikey', 'auto'] as const)('%s: everything in one round trip', (mode) => {
    expect(warmupSize(mode, 5000, 5000, 1000, 250_000)).toBe(1000);
  });

  it('chunked: a chunk per round trip; cold: none', () => {
    expect(warmupSize('chunked', 5000, 10, 1000, 20_000)).toBe(100);
    expect(warmupSize('multi', 5000, 5000, 0, 100)).toBe(0);
  });
});
