import { describe, expect, it } from 'vitest';
import { SWEEP_FORMAT, type SweepDocument } from './sweep-format.ts';
import { parseDocument, serializeSweep } from './sweep-io.ts';
import { TraceError } from './trace-builder.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

const run = (opsPerSec: number, reads: number) => ({
  totals: { durationUs: 1e6 / opsPerSec * 100, opsPerSec },
  counts: {
    client: { writes: 100, reads: 100, bytesOut: 1400, bytesIn: 700, source: 'client-socket' as const },
    server: { reads, writes: reads, execUs: 50, source: 'redis-info' as const, exclusive: true },
  },
});

const SWEEP: SweepDocument = {
  format: SWEEP_FORMAT,
  version: 1,
  sweep: {
    id: 'abcd-1234', startedAt: '2026-11-22T10:00:00.000Z', command: 'PING', valueBytes: 0, engine: 'ioredis',
    perPoint: 100, repeats: 2, depths: [1, 10], rtt: { addedMs: 0, jitterMs: 0 }, serverTraced: false,
  },
  redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:6379' },
  recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20' },
  points: [
    { depth: 1, runs: [run(10_000, 100), run(12_000, 100)] },
    { depth: 10, runs: [run(80_000, 10), run(90_000, 10)] },
  ],
  reference: { tool: 'redis-benchmark', version: '7.0.15', args: ['-c', '1'], points: [{ depth: 1, opsPerSec: [15_000, 16_000] }] },
};

describe('parseDocument', () => {
  it('reads a sweep back as it was written', () => {
    expect(parseDocument(serializeSweep(SWEEP))).toEqual({ kind: 'sweep', doc: SWEEP });
  });

  it('refuses a sweep whose points do not follow its depths', () => {
    const text = serializeSweep({ ...SWEEP, points: [SWEEP.points[1]!, SWEEP.points[0]!] });
    expect(thrownMessage(() => parseDocument(text), TraceError)).toBe('Invalid sweep: its points do not follow the sweep\'s depths.');
  });

  it('refuses a point with the wrong number of runs', () => {
    const text = serializeSweep({ ...SWEEP, points: [{ depth: 1, runs: [run(1, 1)] }] });
    expect(thrownMessage(() => parseDocument(text), TraceError)).toBe('Invalid sweep: depth 1 has 1 runs, not 2.');
  });

  it('refuses another version and bad fields, naming them', () => {
    expect(thrownMessage(() => parseDocument(JSON.stringify({ ...SWEEP, version: 2 })), TraceError)).toBe('Unsupported sweep version 2; this Pipescope reads version 1.');
    expect(thrownMessage(() => parseDocument(JSON.stringify({ ...SWEEP, sweep: { ...SWEEP.sweep, serverTraced: true } })), TraceError)).toBe(
      'Invalid sweep: sweep.serverTraced: Invalid input: expected false',
    );
  });

  it('takes anything else for a trace, and says what is wrong with it', () => {
    expect(thrownMessage(() => parseDocument('{"format":"x"}'), TraceError)).toBe('Not a trace: expected "format": "pipescope-trace".');
    expect(thrownMessage(() => parseDocument('nope'), TraceError)).toMatch(/^Not a Pipescope file: the file is not valid JSON/);
  });
});
