import { describe, expect, it } from 'vitest';
import { TraceBuilder, type TraceHeader } from '../format/trace-builder.ts';
import type { TraceDocument } from '../format/trace-format.ts';
import { errorCount, percentile } from './trace-stats.ts';

const HEADER: TraceHeader = {
  run: { id: 'stats-run', mode: 'sequential', command: 'INCR', n: 4, operations: 4, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z', keyPattern: 'pipescope:stats-run:counter', warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false } },
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

describe('errorCount', () => {
  it('counts error replies', () => {
    expect(errorCount(sample())).toBe(1);
  });
});

describe('runPhases', () => {
  it('splits t0 → doneUs into parts that add up to it exactly', async () => {
    const { runPhases } = await import('./run-phases.ts');
    const b = new TraceBuilder(HEADER);
    b.addBatch({
      writes: [0, 100, 200, 400].map((atUs) => ({ atUs: atUs + 30, bytes: 46, commands: 1 })),
      reads: [40, 110, 300, 425].map((atUs) => ({ atUs: atUs + 30, bytes: 4, replies: 1 })),
      outcomes: [{ reply: 1 }, { reply: 2 }, { error: 'ERR overflow' }, { reply: 3 }],
    });
    const doc = b.finish({ reads: 8, writes: 6, execUs: 5, source: 'redis-info', exclusive: true }, { doneUs: 470 });
    const phases = runPhases(doc);
    // Out: 40 + 10 + 100 + 25 = 175 µs, 5 of them Redis executing; the client's turns fill the rest.
    expect(phases.map((p) => [p.name, p.us, p.source])).toEqual([
      ['beforeFirstWrite', 30, 'client-socket'],
      ['awaiting', 170, 'client-socket'],
      ['redisExec', 5, 'redis-info'],
      ['clientBetween', 250, 'client-socket'],
      ['afterLastRead', 15, 'client-socket'],
    ]);
    expect(phases.reduce((sum, p) => sum + p.us, 0)).toBe(doc.totals.doneUs);
  });

  it('a pipeline is one stretch out, Redis capped at it', async () => {
    const { runPhases } = await import('./run-phases.ts');
    const b = new TraceBuilder({ ...HEADER, run: { ...HEADER.run, mode: 'pipeline' } });
    b.addBatch({ writes: [{ atUs: 900, bytes: 184, commands: 4 }], reads: [{ atUs: 950, bytes: 16, replies: 4 }], outcomes: [{ reply: 1 }, { reply: 2 }, { reply: 3 }, { reply: 4 }] });
    const phases = runPhases(b.finish({ reads: 1, writes: 1, execUs: 80, source: 'redis-info', exclusive: true }, { doneUs: 1000 }));
    expect(Object.fromEntries(phases.map((p) => [p.name, p.us]))).toEqual({ beforeFirstWrite: 900, awaiting: 0, redisExec: 50, clientBetween: 0, afterLastRead: 50 });
  });

  it('a cluster run: a later-written command answered first on its own socket; no part below zero', async () => {
    const { runPhases } = await import('./run-phases.ts');
    const b = new TraceBuilder({ ...HEADER, run: { ...HEADER.run, mode: 'pipeline', n: 2, operations: 2 } });
    b.addBatch({
      writes: [{ atUs: 10, bytes: 46, commands: 1, connection: 0 }, { atUs: 12, bytes: 46, commands: 1, connection: 1 }],
      reads: [{ atUs: 30, bytes: 4, replies: 1, connection: 1 }, { atUs: 50, bytes: 4, replies: 1, connection: 0 }],
      outcomes: [{ reply: 1 }, { reply: 2 }],
    });
    const phases = runPhases(b.finish({ reads: 2, writes: 2, execUs: 5, source: 'redis-info', exclusive: true }, { doneUs: 60 }));
    // Out from 10 to 50 (the slower socket's reply is the last read): 40 µs, 5 of them Redis.
    expect(Object.fromEntries(phases.map((p) => [p.name, p.us]))).toEqual({ beforeFirstWrite: 10, awaiting: 35, redisExec: 5, clientBetween: 0, afterLastRead: 10 });
  });
});

describe('latencyStats and latencyHistogram', () => {
  it('reports avg, min, p50, p95, p99 and max as redis-benchmark does, sorting numerically (not as text)', async () => {
    const { latencyStats } = await import('./latency-stats.ts');
    expect(latencyStats(sample())).toEqual({ count: 4, avgUs: 43.75, minUs: 10, p50Us: 25, p95Us: 100, p99Us: 100, maxUs: 100 });
  });

  it('says how many commands a percentile needs', async () => {
    const { percentileNeeds } = await import('./latency-stats.ts');
    expect([50, 95, 99, 99.9].map(percentileNeeds)).toEqual([2, 20, 100, 1000]);
  });

  it('puts latencies in fixed log buckets, 10 a decade, the same edges for every run', async () => {
    const { latencyHistogram, bucketIndex } = await import('./latency-stats.ts');
    expect([0.5, 1, 9.99, 10, 100, 1000, 1258].map(bucketIndex)).toEqual([0, 0, 9, 10, 20, 30, 30]);
    const histogram = latencyHistogram(sample()); // 10, 25, 40, 100 µs
    expect(histogram[0]).toMatchObject({ index: 10, fromUs: 10, count: 1 });
    expect(histogram.at(-1)).toMatchObject({ index: 20, fromUs: 100, count: 1 });
    expect(histogram).toHaveLength(11);
    expect(histogram.reduce((sum, b) => sum + b.count, 0)).toBe(4);
  });
});

describe('repeats', () => {
  const timed = (durationUs: number, repeat: number, mode: 'sequential' | 'pipeline' = 'sequential') => {
    const b = new TraceBuilder({ ...HEADER, run: { ...HEADER.run, n: 1, operations: 1, mode, repeat } });
    b.addBatch({ writes: [{ atUs: 0, bytes: 46, commands: 1 }], reads: [{ atUs: durationUs, bytes: 4, replies: 1 }], outcomes: [{ reply: 1 }] });
    return b.finish({ reads: 1, writes: 1, execUs: 1, source: 'redis-info', exclusive: true });
  };

  it('the median repeat, the lower middle one for an even count', async () => {
    const { medianRepeat } = await import('./repeat-stats.ts');
    expect(medianRepeat([timed(50, 0), timed(10, 1), timed(30, 2)])!.run.repeat).toBe(2);
    expect(medianRepeat([timed(50, 0), timed(10, 1), timed(30, 2), timed(40, 3)])!.run.repeat).toBe(2);
    expect(medianRepeat([])).toBeUndefined();
  });

  it('the spread over a run\'s repeats, and overlapping ranges are within noise', async () => {
    const { rangesOverlap, spreadOver } = await import('./repeat-stats.ts');
    const seq = spreadOver([timed(50, 0), timed(40, 1)], (d) => d.totals.durationUs);
    const pipe = spreadOver([timed(5, 0, 'pipeline'), timed(6, 1, 'pipeline')], (d) => d.totals.durationUs);
    expect(seq).toEqual({ median: 45, min: 40, max: 50 });
    expect(rangesOverlap(seq, pipe)).toBe(false);
    expect(rangesOverlap({ median: 5, min: 4, max: 9 }, { median: 8, min: 8, max: 12 })).toBe(true);
  });
});
