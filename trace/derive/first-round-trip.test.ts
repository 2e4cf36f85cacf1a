import { describe, expect, it } from 'vitest';
import { TraceBuilder, type TraceHeader } from '../format/trace-builder.ts';
import type { RunMode, TraceDocument } from '../format/trace-format.ts';
import { firstRoundTrip } from './first-round-trip.ts';

const header = (mode: RunMode, n: number): TraceHeader => ({
  run: { id: 'first-rt', mode, command: 'INCR', n, operations: n, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z', keyPattern: 'pipescope:first-rt:counter', warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false } },
  redis: { version: '7.2.4', embedded: true, address: '127.0.0.1:6379' },
  rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 30, measuredMedianUs: 35, samples: 5 },
  recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.0.0' },
});

/** Sequential commands written at `sends` and answered at `replies` (µs). */
function sequential(sends: number[], replies: number[]): TraceDocument {
  const b = new TraceBuilder(header('sequential', sends.length));
  b.addBatch({
    writes: sends.map((atUs) => ({ atUs, bytes: 40, commands: 1 })),
    reads: replies.map((atUs) => ({ atUs, bytes: 4, replies: 1 })),
    outcomes: sends.map((_, i) => ({ reply: i + 1 })),
  });
  return b.finish({ reads: sends.length, writes: sends.length, execUs: 1, source: 'redis-info', exclusive: true });
}

describe('firstRoundTrip', () => {
  it('the first round trip against the median of the others', () => {
    // Round trips 60, 20, 30, 25, 100: the rest's median is (25 + 30) / 2.
    const doc = sequential([5, 70, 95, 130, 160], [65, 90, 125, 155, 260]);
    expect(firstRoundTrip(doc)).toEqual({ firstUs: 60, restUs: 27.5, rest: 4, ratio: 60 / 27.5 });
  });

  it('none for fewer than three round trips, or for commands that shared one (a pipeline)', () => {
    expect(firstRoundTrip(sequential([0, 50], [40, 90]))).toBeNull();
    const b = new TraceBuilder(header('pipeline', 4));
    b.addBatch({ writes: [{ atUs: 3, bytes: 160, commands: 4 }], reads: [{ atUs: 50, bytes: 16, replies: 4 }], outcomes: [1, 2, 3, 4].map((reply) => ({ reply })) });
    expect(firstRoundTrip(b.finish({ reads: 1, writes: 1, execUs: 1, source: 'redis-info', exclusive: true }))).toBeNull();
  });
});
