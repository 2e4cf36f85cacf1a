import { describe, expect, it } from 'vitest';
import { TraceBuilder, type ServerSide, type TraceHeader } from '../format/trace-builder.ts';
import type { HeldConnection, Neighbor, RunMode, TraceDocument } from '../format/trace-format.ts';
import { formatWait, heldConnectionVerdict, neighborInsideRun, neighborLatency, neighborLatencyBuckets, neighborVerdictLines } from './neighbor-verdicts.ts';

const NEIGHBOR_ADDRESS = '127.0.0.1:50001';

function header(mode: RunMode, n: number, monitor: boolean, operations = n): TraceHeader {
  return {
    run: {
      id: 'test-neighbor', mode, command: 'INCR', n, operations, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z',
      keyPattern: 'pipescope:test-neighbor:counter', warmup: null, injectedError: null, repeat: 0,
      probes: { monitor, strace: false, memory: false, kernelTcp: false, heldConnection: false },
    },
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:6379' },
    rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 40, measuredMedianUs: 50, samples: 5 },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.0.0' },
  };
}

/** A pipeline of n INCRs written at 10 µs, executed at 100, 110, … µs, replied at 1,000 µs. */
function run(
  { mode = 'pipeline', n = 5, others = [], neighbor = null, heldConnection = null, monitor = true, operations = n }:
  { mode?: RunMode; n?: number; others?: { atUs: number; source: string; command: string }[]; neighbor?: Neighbor | null; heldConnection?: HeldConnection | null; monitor?: boolean; operations?: number },
): TraceDocument {
  const b = new TraceBuilder(header(mode, n, monitor, operations));
  b.addBatch({ writes: [{ atUs: 10, bytes: n * 40, commands: n }], reads: [{ atUs: 1000, bytes: n * 4, replies: n }], outcomes: Array.from({ length: n }, (_, i) => ({ reply: i + 1 })) });
  const serverSide: ServerSide | null = monitor
    ? { trace: { clock: { offsetUs: 0, uncertaintyUs: 5, samples: 3 }, others, syscalls: null }, serverUs: Array.from({ length: n }, (_, i) => 100 + 10 * i) }
    : null;
  return b.finish({ reads: 1, writes: 1, execUs: 5, source: 'redis-info', exclusive: false }, { serverSide, neighbor, heldConnection });
}

function neighbor(commands: Neighbor['commands']): Neighbor {
  return { source: 'neighbor-client', command: 'INCR', ratePerSec: 1000, valueBytes: 0, address: NEIGHBOR_ADDRESS, commands };
}

const line = (atUs: number, source = NEIGHBOR_ADDRESS) => ({ atUs, source, command: 'INCR pipescope:test-neighbor:neighbor' });

describe('neighborInsideRun', () => {
  it('counts the neighbour\'s MONITOR lines strictly between the run\'s first and last execution', () => {
    // The run executes at 100 … 140 µs: 100 and 140 are its ends, not inside.
    const doc = run({ others: [line(50), line(100), line(120), line(130), line(125, '127.0.0.1:9'), line(140), line(500)], neighbor: neighbor([]) });
    expect(neighborInsideRun(doc)).toEqual({ inside: 2, seen: 6, fromUs: 100, toUs: 140, source: 'MONITOR' });
  });

  it('null without a neighbour or without MONITOR', () => {
    expect(neighborInsideRun(run({ others: [line(120)] }))).toBeNull();
    expect(neighborInsideRun(run({ monitor: false, neighbor: neighbor([]) }))).toBeNull();
  });

  it('MULTI/EXEC: the window is the queued commands, run at EXEC (MULTI and EXEC themselves excluded)', () => {
    // 3 operations: MULTI (100), INCR 110, 120, 130, EXEC (140).
    const doc = run({ mode: 'multi', n: 5, operations: 3, others: [line(105), line(115), line(135)], neighbor: neighbor([]) });
    expect(neighborInsideRun(doc)).toMatchObject({ inside: 1, fromUs: 110, toUs: 130 });
  });

  it('EVAL: from the EVAL\'s line to that plus Redis\'s time executing it (INFO commandstats)', () => {
    // execUs 5 (the fixture's): the script ran 100 … 105 µs.
    const doc = run({ mode: 'eval', n: 1, operations: 3, others: [line(99), line(103), line(107)], neighbor: neighbor([]) });
    expect(neighborInsideRun(doc)).toMatchObject({ inside: 1, fromUs: 100, toUs: 105 });
  });
});

describe('neighborLatency', () => {
  it('splits before t0 (replied by 0) from during the run (in flight within [0, durationUs]) and after', () => {
    const commands = [
      ...Array.from({ length: 10 }, (_, i) => ({ sentUs: -1000 + i * 50, repliedUs: -990 + i * 50 })), // 10 µs each, before
      { sentUs: -5, repliedUs: 600 }, // straddles t0: during
      { sentUs: 200, repliedUs: 900, error: 'ERR boom' },
      { sentUs: 2000, repliedUs: 2010 }, // after the last reply (1,000 µs)
    ];
    const latency = neighborLatency(run({ neighbor: neighbor(commands) }))!;
    expect(latency.before).toMatchObject({ count: 10, avgUs: 10, maxUs: 10 });
    expect(latency.during).toMatchObject({ count: 2, minUs: 605, maxUs: 700 });
    expect(latency.after).toBe(1);
    expect(latency.errors).toBe(1);
    expect(neighborLatency(run({}))).toBeNull();
  });

  it('buckets over send time, empty buckets kept', () => {
    const commands = [{ sentUs: 0, repliedUs: 10 }, { sentUs: 10, repliedUs: 40 }, { sentUs: 100, repliedUs: 105 }];
    const buckets = neighborLatencyBuckets(run({ neighbor: neighbor(commands) }), 4);
    expect(buckets.map((b) => b.count)).toEqual([2, 0, 0, 1]);
    expect(buckets[0]).toMatchObject({ fromUs: 0, toUs: 25, avgUs: 20, maxUs: 30 });
    expect(neighborLatencyBuckets(run({}), 4)).toEqual([]);
  });
});

describe('held connection', () => {
  it('how long each PING waited from the moment both were issued', () => {
    const doc = run({ heldConnection: { issuedUs: 20, sameConnectionRepliedUs: 1000, otherConnectionRepliedUs: 120 } });
    expect(heldConnectionVerdict(doc)).toEqual({ sameWaitUs: 980, otherWaitUs: 100 });
    expect(heldConnectionVerdict(run({}))).toBeNull();
  });
});

describe('sentences', () => {
  it('formatWait picks µs, ms or s', () => {
    expect(formatWait(850.4)).toBe('850 µs');
    expect(formatWait(41_200)).toBe('41.2 ms');
    expect(formatWait(1_250_000)).toBe('1.25 s');
  });

  it('names the source of each verdict', () => {
    const doc = run({
      others: [line(120)],
      neighbor: neighbor([{ sentUs: -100, repliedUs: -90 }, { sentUs: 100, repliedUs: 900 }]),
      heldConnection: { issuedUs: 20, sameConnectionRepliedUs: 41_220, otherConnectionRepliedUs: 120 },
    });
    const lines = neighborVerdictLines(doc);
    expect(lines[0]).toBe('1 of the neighbour\'s commands ran inside your pipeline (MONITOR: between its first and last execution, 40 µs)');
    expect(lines[1]).toContain('during the run 1 commands, avg 800 µs');
    expect(lines[1]).toContain('(neighbour client timings)');
    expect(lines[2]).toBe('a PING on the same connection waited 41.2 ms behind the run; on a second connection 100 µs (PING reply times)');
    expect(neighborVerdictLines(run({ monitor: false, neighbor: neighbor([]) }))[0]).toContain('needs MONITOR');
  });
});
