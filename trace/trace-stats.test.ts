import { describe, expect, it } from 'vitest';
import { TraceBuilder, type TraceHeader } from './trace-builder.ts';
import type { TraceDocument } from './trace-format.ts';
import { errorCount, latencySummary, percentile } from './trace-stats.ts';

const HEADER: TraceHeader = {
  run: { id: 'stats-run', mode: 'sequential', command: 'INCR', n: 4, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z', keyPattern: 'pipescope:stats-run:counter' },
  redis: { version: '7.2.4', embedded: true, address: '127.0.0.1:6379' },
  rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 30, measuredMedianUs: 35, samples: 5 },
  recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.0.0' },
};

/** Four sequential commands with latencies 40, 10, 100 and 25 µs; the third reply is an error. */
function sample(): TraceDocument {
  const b = new TraceBuilder(HEADER);
  b.addBatch({
    writes: [0, 100, 200, 400].map((atUs) => ({ atUs, bytes: 46, commands: 1 })),
    reads: [40, 110, 300, 425].map((atUs) => ({ atUs, bytes: 4, replies: 1 })),
    outcomes: [{ reply: 1 }, { reply: 2 }, { error: 'ERR overflow' }, { reply: 3 }],
  });
  return b.finish({ reads: 8, writes: 6, execUs: 5, source: 'redis-info', exclusive: true });
}

describe('percentile (nearest rank)', () => {
  const values = [10, 20, 30, 40, 50];

  it.each([
    [0, 10],
    [20, 10],
    [21, 20],
    [50, 30],
    [99, 50],
    [100, 50],
  ])('p%i of [10..50] is %i', (p, expected) => {
    expect(percentile(values, p)).toBe(expected);
  });

  it('is 0 for no values', () => {
    expect(percentile([], 50)).toBe(0);
  });

  it('p99 of 100 values is the 99th', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(hundred, 99)).toBe(99);
  });
});

describe('latencySummary', () => {
  it('sorts latencies numerically (not as text) before taking percentiles', () => {
    expect(latencySummary(sample())).toEqual({ p50Us: 25, p99Us: 100, maxUs: 100 });
  });
});

describe('errorCount', () => {
  it('counts error replies', () => {
    expect(errorCount(sample())).toBe(1);
  });
});
