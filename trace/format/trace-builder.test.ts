import { describe, expect, it } from 'vitest';
import { TraceBuilder, TraceError, type ServerCounts, type TraceHeader } from './trace-builder.ts';
import type { RunInfo } from './trace-format.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

const SERVER: ServerCounts = { reads: 3, writes: 3, execUs: 2.5, source: 'redis-info', exclusive: true };

const HEADER: TraceHeader = {
  run: { id: 'test-run-1', mode: 'sequential', command: 'PING', n: 1, operations: 1, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z', keyPattern: '', warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false } },
  redis: { version: '7.2.4', embedded: true, address: '127.0.0.1:6379' },
  rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 31, measuredMedianUs: 38, samples: 5 },
  recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.0.0' },
};

function builder(n: number, mode: RunInfo['mode'] = 'sequential'): TraceBuilder {
  return new TraceBuilder({ ...HEADER, run: { ...HEADER.run, n, operations: n, mode } });
}

function pongs(n: number) {
  return Array.from({ length: n }, () => ({ reply: 'PONG' }));
}

const traceErrorOf = (action: () => unknown): string => thrownMessage(action, TraceError);

describe('TraceBuilder: sequential-like stream (one write and one read per command)', () => {
  const b = builder(3);
  b.addWrite({ atUs: 0, bytes: 14, commands: 1 });
  b.addRead({ atUs: 40, bytes: 7, replies: 1 });
  b.addWrite({ atUs: 100, bytes: 14, commands: 1 });
  b.addRead({ atUs: 150, bytes: 7, replies: 1 });
  b.addWrite({ atUs: 200, bytes: 14, commands: 1 });
  b.addRead({ atUs: 260, bytes: 7, replies: 1 });
  for (const outcome of pongs(3)) b.addOutcome(outcome);
  const doc = b.finish(SERVER);

  it('derives each command time from the write and the read that carried it', () => {
    expect(doc.commands).toEqual([
      { index: 0, sentUs: 0, repliedUs: 40, reply: 'PONG' },
      { index: 1, sentUs: 100, repliedUs: 150, reply: 'PONG' },
      { index: 2, sentUs: 200, repliedUs: 260, reply: 'PONG' },
    ]);
  });

  it('records writes and reads with the commands/replies they completed', () => {
    expect(doc.writes).toEqual([
      { atUs: 0, bytes: 14, firstCommand: 0, commands: 1 },
      { atUs: 100, bytes: 14, firstCommand: 1, commands: 1 },
      { atUs: 200, bytes: 14, firstCommand: 2, commands: 1 },
    ]);
    expect(doc.reads).toEqual([
      { atUs: 40, bytes: 7, firstReply: 0, replies: 1 },
      { atUs: 150, bytes: 7, firstReply: 1, replies: 1 },
      { atUs: 260, bytes: 7, firstReply: 2, replies: 1 },
    ]);
  });

  it('counts client events and bytes, and copies the server counts', () => {
    expect(doc.counts).toEqual({
      client: { writes: 3, reads: 3, bytesOut: 42, bytesIn: 21, source: 'client-socket' },
      server: { reads: 3, writes: 3, execUs: 2.5, source: 'redis-info', exclusive: true },
    });
  });

  it('totals: duration is the last reply, ops/s = n / duration', () => {
    expect(doc.totals.durationUs).toBe(260);
    expect(doc.totals.opsPerSec).toBeCloseTo(3e6 / 260, 9);
  });

  it('carries the header through, with format and version', () => {
    expect(doc.format).toBe('pipescope-trace');
    expect(doc.version).toBe(4);
    expect(doc.run).toEqual({ ...HEADER.run, n: 3, operations: 3 });
    expect(doc.redis).toEqual(HEADER.redis);
    expect(doc.rtt).toEqual(HEADER.rtt);
    expect(doc.recorder).toEqual(HEADER.recorder);
  });
});

describe('TraceBuilder: pipeline-like stream (one write, replies spread over chunks)', () => {
  const b = builder(5, 'pipeline');
  b.addWrite({ atUs: 10, bytes: 70, commands: 5 });
  b.addRead({ atUs: 50, bytes: 14, replies: 2 });
  b.addRead({ atUs: 55, bytes: 3, replies: 0 }); // a chunk ending mid-reply completes nothing
  b.addRead({ atUs: 60, bytes: 4, replies: 1 });
  b.addRead({ atUs: 70, bytes: 14, replies: 2 });
  for (const outcome of pongs(5)) b.addOutcome(outcome);
  const doc = b.finish(SERVER);

  it('every command was sent by the one write; replies take the time of the chunk that completed them', () => {
    expect(doc.commands.map((c) => c.sentUs)).toEqual([10, 10, 10, 10, 10]);
    expect(doc.commands.map((c) => c.repliedUs)).toEqual([50, 50, 60, 70, 70]);
    expect(doc.commands.map((c) => c.index)).toEqual([0, 1, 2, 3, 4]);
  });

  it('numbers the first reply of each chunk by FIFO position', () => {
    expect(doc.writes).toEqual([{ atUs: 10, bytes: 70, firstCommand: 0, commands: 5 }]);
    expect(doc.reads.map((r) => [r.firstReply, r.replies])).toEqual([[0, 2], [2, 0], [2, 1], [3, 2]]);
  });

  it('counts and totals', () => {
    expect(doc.counts.client).toEqual({ writes: 1, reads: 4, bytesOut: 70, bytesIn: 35, source: 'client-socket' });
    expect(doc.totals.durationUs).toBe(70);
    expect(doc.totals.opsPerSec).toBeCloseTo(5e6 / 70, 9);
  });
});

describe('TraceBuilder: other shapes', () => {
  it('a command whose bytes span two writes is sent at the write carrying its last byte', () => {
    const b = builder(2, 'pipeline');
    b.addWrite({ atUs: 5, bytes: 20, commands: 1 }); // command 0 and the start of command 1
    b.addWrite({ atUs: 9, bytes: 8, commands: 1 });
    b.addRead({ atUs: 30, bytes: 14, replies: 2 });
    b.addOutcome({ reply: 1 });
    b.addOutcome({ error: 'ERR value is not an integer or out of range' });
    const doc = b.finish(SERVER);
    expect(doc.commands).toEqual([
      { index: 0, sentUs: 5, repliedUs: 30, reply: 1 },
      { index: 1, sentUs: 9, repliedUs: 30, error: 'ERR value is not an integer or out of range' },
    ]);
    expect(doc.writes.map((w) => w.firstCommand)).toEqual([0, 1]);
  });

  it('a reply in the same microsecond as its write is allowed', () => {
    const b = builder(1);
    b.addWrite({ atUs: 7, bytes: 14, commands: 1 });
    b.addRead({ atUs: 7, bytes: 7, replies: 1 });
    b.addOutcome({ reply: null });
    expect(b.finish(SERVER).commands[0]).toEqual({ index: 0, sentUs: 7, repliedUs: 7, reply: null });
  });

  it('a zero-length run (everything at t0) has ops/s 0 rather than Infinity', () => {
    const b = builder(1);
    b.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], reads: [{ atUs: 0, bytes: 7, replies: 1 }], outcomes: pongs(1) });
    expect(b.finish(SERVER).totals).toEqual({ durationUs: 0, opsPerSec: 0, doneUs: 0 });
  });

  it('server counts come out in a fixed key order whatever order the caller used', () => {
    const make = (server: ServerCounts) => {
      const b = builder(1);
      b.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], reads: [{ atUs: 3, bytes: 7, replies: 1 }], outcomes: pongs(1) });
      return JSON.stringify(b.finish(server));
    };
    const shuffled = { exclusive: false, source: 'redis-info', execUs: 7, writes: 1, reads: 2 } as const;
    const text = make(shuffled);
    expect(text).toBe(make({ reads: 2, writes: 1, execUs: 7, source: 'redis-info', exclusive: false }));
    expect(text).toContain('"server":{"reads":2,"writes":1,"execUs":7,"source":"redis-info","exclusive":false}');
  });

  it('takes only the header fields from a larger message (e.g. a run-start message)', () => {
    const message = { type: 'run-start', requestId: 'req-1', ...HEADER };
    const b = new TraceBuilder(message);
    b.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], reads: [{ atUs: 3, bytes: 7, replies: 1 }], outcomes: pongs(1) });
    const doc = b.finish(SERVER);
    expect(Object.keys(doc)).toEqual(['format', 'version', 'run', 'redis', 'rtt', 'recorder', 'commands', 'writes', 'reads', 'proxy', 'serverTrace', 'counts', 'totals', 'memory', 'kernelTcp', 'keysAfter', 'neighbor', 'heldConnection', 'incomplete']);
    expect(doc.proxy).toBeNull(); // a direct run: no proxy events
    expect(doc.serverTrace).toBeNull(); // not server-traced
  });

  it('progress reports sent, replied and the latest event time', () => {
    const b = builder(3);
    expect(b.progress).toEqual({ n: 3, sent: 0, replied: 0, lastUs: 0 });
    b.addWrite({ atUs: 10, bytes: 28, commands: 2 });
    expect(b.progress).toEqual({ n: 3, sent: 2, replied: 0, lastUs: 10 });
    b.addRead({ atUs: 25, bytes: 7, replies: 1 });
    expect(b.progress).toEqual({ n: 3, sent: 2, replied: 1, lastUs: 25 });
  });
});

describe('TraceBuilder.addBatch', () => {
  it('applies the writes before the reads, so a read may complete a command written in the same batch', () => {
    const b = builder(2);
    b.addBatch({
      writes: [{ atUs: 0, bytes: 14, commands: 1 }, { atUs: 100, bytes: 14, commands: 1 }],
      reads: [{ atUs: 50, bytes: 7, replies: 1 }, { atUs: 160, bytes: 7, replies: 1 }],
      outcomes: pongs(2),
    });
    const doc = b.finish(SERVER);
    expect(doc.commands.map((c) => [c.sentUs, c.repliedUs])).toEqual([[0, 50], [100, 160]]);
  });

  it('gives the same document as feeding the events one by one, across several batches', () => {
    const oneByOne = builder(3);
    oneByOne.addWrite({ atUs: 0, bytes: 14, commands: 1 });
    oneByOne.addRead({ atUs: 40, bytes: 7, replies: 1 });
    oneByOne.addWrite({ atUs: 100, bytes: 28, commands: 2 });
    oneByOne.addRead({ atUs: 150, bytes: 14, replies: 2 });
    for (const outcome of pongs(3)) oneByOne.addOutcome(outcome);

    const batched = builder(3);
    batched.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], reads: [], outcomes: [] });
    batched.addBatch({ writes: [{ atUs: 100, bytes: 28, commands: 2 }], reads: [{ atUs: 40, bytes: 7, replies: 1 }], outcomes: pongs(1) });
    batched.addBatch({ writes: [], reads: [{ atUs: 150, bytes: 14, replies: 2 }], outcomes: pongs(2) });

    expect(batched.finish(SERVER)).toEqual(oneByOne.finish(SERVER));
  });

  it('still refuses a read whose command is only written in a later batch', () => {
    const b = builder(1);
    expect(traceErrorOf(() => b.addBatch({ writes: [], reads: [{ atUs: 50, bytes: 7, replies: 1 }], outcomes: [] }))).toBe(
      'Reply 0 arrived at 50 µs, before command 0 was written.',
    );
  });
});

describe('TraceBuilder refuses impossible data', () => {
  it('a reply before its command was written at all', () => {
    const b = builder(2);
    b.addWrite({ atUs: 0, bytes: 14, commands: 1 });
    expect(traceErrorOf(() => b.addRead({ atUs: 30, bytes: 14, replies: 2 }))).toBe(
      'Reply 1 arrived at 30 µs, before command 1 was written.',
    );
  });

  it('a reply earlier than the write that carried its command', () => {
    const b = builder(1);
    b.addWrite({ atUs: 100, bytes: 14, commands: 1 });
    expect(traceErrorOf(() => b.addRead({ atUs: 99, bytes: 7, replies: 1 }))).toBe(
      'Reply 0 arrived at 99 µs, before its request was written at 100 µs.',
    );
  });

  it('writes out of order', () => {
    const b = builder(2);
    b.addWrite({ atUs: 100, bytes: 14, commands: 1 });
    expect(traceErrorOf(() => b.addWrite({ atUs: 90, bytes: 14, commands: 1 }))).toBe('Socket writes out of order: 90 µs after 100 µs.');
  });

  it('reads out of order', () => {
    const b = builder(2);
    b.addWrite({ atUs: 0, bytes: 28, commands: 2 });
    b.addRead({ atUs: 80, bytes: 7, replies: 1 });
    expect(traceErrorOf(() => b.addRead({ atUs: 79, bytes: 7, replies: 1 }))).toBe('Socket reads out of order: 79 µs after 80 µs.');
  });

  it('equal times are in order, not out of it', () => {
    const b = builder(2);
    b.addWrite({ atUs: 5, bytes: 14, commands: 1 });
    b.addWrite({ atUs: 5, bytes: 14, commands: 1 });
    b.addRead({ atUs: 9, bytes: 7, replies: 1 });
    expect(() => b.addRead({ atUs: 9, bytes: 7, replies: 1 })).not.toThrow();
  });

  it('more commands written than the run has', () => {
    const b = builder(3);
    b.addWrite({ atUs: 0, bytes: 28, commands: 2 });
    expect(traceErrorOf(() => b.addWrite({ atUs: 5, bytes: 28, commands: 2 }))).toBe(
      'Write at 5 µs carries command 3, but the run has only 3.',
    );
    expect(b.progress.sent).toBe(2); // the refused write changed nothing
  });

  it('more replies read than the run has commands', () => {
    const b = builder(2);
    b.addWrite({ atUs: 0, bytes: 28, commands: 2 });
    expect(traceErrorOf(() => b.addRead({ atUs: 9, bytes: 21, replies: 3 }))).toBe('Read at 9 µs completes reply 2, but the run has only 2.');
  });

  it('more outcomes than the run has commands', () => {
    const b = builder(2);
    b.addOutcome({ reply: 'PONG' });
    b.addOutcome({ reply: 'PONG' });
    expect(traceErrorOf(() => b.addOutcome({ reply: 'PONG' }))).toBe("More replies than the run's 2 commands.");
  });
});

describe('TraceBuilder.finish on an incomplete run', () => {
  it('names how many commands were written', () => {
    const b = builder(3);
    b.addWrite({ atUs: 0, bytes: 28, commands: 2 });
    expect(traceErrorOf(() => b.finish(SERVER))).toBe('Only 2 of 3 commands were written.');
  });

  it('names how many replies arrived', () => {
    const b = builder(3);
    b.addWrite({ atUs: 0, bytes: 42, commands: 3 });
    b.addRead({ atUs: 20, bytes: 7, replies: 1 });
    expect(traceErrorOf(() => b.finish(SERVER))).toBe('Only 1 of 3 replies arrived.');
  });

  it('names how many reply values were recorded', () => {
    const b = builder(3);
    b.addWrite({ atUs: 0, bytes: 42, commands: 3 });
    b.addRead({ atUs: 20, bytes: 21, replies: 3 });
    b.addOutcome({ reply: 'PONG' });
    expect(traceErrorOf(() => b.finish(SERVER))).toBe('Only 1 of 3 reply values were recorded.');
  });
});

describe('TraceBuilder: runs through the delay proxy', () => {
  /** Two pipelined commands: client write → proxy hands them to Redis → Redis replies → client read. */
  function proxied(edit: (events: { toServerUs: number; fromServerUs: number; readUs: number }) => void = () => {}) {
    const times = { toServerUs: 25_010, fromServerUs: 25_060, readUs: 50_080 };
    edit(times);
    const b = builder(2, 'pipeline');
    b.addBatch({
      writes: [{ atUs: 10, bytes: 28, commands: 2 }],
      toServer: [{ atUs: times.toServerUs, bytes: 28, commands: 2 }],
      fromServer: [{ atUs: times.fromServerUs, bytes: 14, replies: 2 }],
      reads: [{ atUs: times.readUs, bytes: 14, replies: 2 }],
      outcomes: pongs(2),
    });
    return b;
  }

  it('gives each command the times it reached Redis and its reply left it, in canonical key order', () => {
    const doc = proxied().finish(SERVER);
    expect(Object.keys(doc.commands[0]!)).toEqual(['index', 'sentUs', 'toServerUs', 'fromServerUs', 'repliedUs', 'reply']);
    expect(doc.commands[1]).toEqual({ index: 1, sentUs: 10, toServerUs: 25_010, fromServerUs: 25_060, repliedUs: 50_080, reply: 'PONG' });
    expect(doc.proxy).toEqual({
      toServer: [{ atUs: 25_010, bytes: 28, firstCommand: 0, commands: 2 }],
      fromServer: [{ atUs: 25_060, bytes: 14, firstReply: 0, replies: 2 }],
    });
  });

  it('has proxy: null and no hop times when the run went direct', () => {
    const b = builder(1);
    b.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], reads: [{ atUs: 30, bytes: 7, replies: 1 }], outcomes: pongs(1) });
    const doc = b.finish(SERVER);
    expect(doc.proxy).toBeNull();
    expect(Object.keys(doc.commands[0]!)).toEqual(['index', 'sentUs', 'repliedUs', 'reply']);
  });

  it('refuses a command handed to Redis before the client wrote it', () => {
    expect(traceErrorOf(() => proxied((t) => (t.toServerUs = 5)))).toBe('The proxy passed command 0 to Redis at 5 µs, before the client wrote it at 10 µs.');
  });

  it('refuses a reply that left Redis before its command reached Redis', () => {
    expect(traceErrorOf(() => proxied((t) => (t.fromServerUs = 25_000)))).toBe('Reply 0 left Redis at 25000 µs, before command 0 reached Redis at 25010 µs.');
  });

  it('refuses a reply that reached the client before it came back through the proxy', () => {
    expect(traceErrorOf(() => proxied((t) => (t.readUs = 25_050)))).toBe('Reply 0 arrived at 25050 µs, before it came back from Redis through the proxy at 25060 µs.');
  });

  it('refuses proxy events that begin after replies arrived', () => {
    const b = builder(2, 'pipeline');
    b.addBatch({ writes: [{ atUs: 0, bytes: 28, commands: 2 }], reads: [{ atUs: 40, bytes: 7, replies: 1 }], outcomes: [] });
    expect(traceErrorOf(() => b.addProxyToServer({ atUs: 50, bytes: 14, commands: 1 }))).toBe(
      'Proxy events began after replies had arrived: the run either went through the proxy or not.',
    );
  });

  it('does not finish while the proxy has not passed every command and reply', () => {
    const b = builder(2, 'pipeline');
    b.addBatch({
      writes: [{ atUs: 0, bytes: 28, commands: 2 }],
      toServer: [{ atUs: 10, bytes: 28, commands: 2 }],
      fromServer: [{ atUs: 20, bytes: 14, replies: 2 }],
      reads: [{ atUs: 30, bytes: 14, replies: 2 }],
      outcomes: pongs(2),
    });
    expect(b.finish(SERVER).commands).toHaveLength(2);
    const partial = builder(1);
    partial.addBatch({ writes: [{ atUs: 0, bytes: 14, commands: 1 }], toServer: [{ atUs: 10, bytes: 7, commands: 0 }], reads: [], outcomes: pongs(1) });
    partial.addRead({ atUs: 30, bytes: 7, replies: 0 });
    expect(traceErrorOf(() => partial.finish(SERVER))).toBe('Only 0 of 1 replies arrived.');
  });
});

describe('TraceBuilder: server-traced runs', () => {
  const clock = { offsetUs: 1.7e15, uncertaintyUs: 40, samples: 8 };
  function twoCommands() {
    const b = builder(2);
    b.addBatch({
      writes: [{ atUs: 0, bytes: 14, commands: 1 }, { atUs: 200, bytes: 14, commands: 1 }],
      reads: [{ atUs: 100, bytes: 7, replies: 1 }, { atUs: 300, bytes: 7, replies: 1 }],
      outcomes: pongs(2),
    });
    return b;
  }
  const trace = { clock, others: [], syscalls: null };

  it('places each command\'s execution time between its request and reply', () => {
    const doc = twoCommands().finish(SERVER, { serverSide: { trace, serverUs: [50, 250] } });
    expect(Object.keys(doc.commands[0]!)).toEqual(['index', 'sentUs', 'serverUs', 'repliedUs', 'reply']);
    expect(doc.commands.map((c) => c.serverUs)).toEqual([50, 250]);
    expect(doc.serverTrace).toEqual(trace);
  });

  it('allows the clock uncertainty, and no more', () => {
    expect(twoCommands().finish(SERVER, { serverSide: { trace, serverUs: [-41, 250] } }).commands[0]!.serverUs).toBe(-41);
    expect(traceErrorOf(() => twoCommands().finish(SERVER, { serverSide: { trace, serverUs: [50, 342] } }))).toBe(
      'Command 1 ran on Redis at 342 µs, outside its request (200 µs) and reply (300 µs) by more than the clock uncertainty of ±40 µs.',
    );
  });

  it('refuses execution times that run backwards or do not cover every command', () => {
    expect(traceErrorOf(() => twoCommands().finish(SERVER, { serverSide: { trace: { ...trace, clock: { ...clock, uncertaintyUs: 500 } }, serverUs: [250, 50] } }))).toBe(
      "Redis's execution times run backwards at command 1.",
    );
    expect(traceErrorOf(() => twoCommands().finish(SERVER, { serverSide: { trace, serverUs: [50] } }))).toBe("Redis's execution times cover 1 of 2 commands.");
  });
});

describe('TraceBuilder.partial (v4: a run as far as it got)', () => {
  const omitted = ['redis-info' as const];
  /** 4 pipelined commands in one write; replies 0–1 arrived in one read, 2 arrived unrecorded so far. */
  function halfway(): TraceBuilder {
    const b = builder(4, 'pipeline');
    b.addBatch({ writes: [{ atUs: 0, bytes: 56, commands: 4 }], reads: [{ atUs: 100, bytes: 14, replies: 2 }, { atUs: 120, bytes: 7, replies: 1 }], outcomes: pongs(2) });
    return b;
  }

  it('lists the commands whose replies arrived and were recorded, all writes and reads, and how far it got', () => {
    const doc = halfway().partial({ reason: 'cancelled', omitted });
    expect(doc.commands).toEqual([{ index: 0, sentUs: 0, repliedUs: 100, reply: 'PONG' }, { index: 1, sentUs: 0, repliedUs: 100, reply: 'PONG' }]);
    expect(doc.writes).toEqual([{ atUs: 0, bytes: 56, firstCommand: 0, commands: 4 }]);
    expect(doc.reads).toHaveLength(2);
    expect(doc.incomplete).toEqual({ reason: 'cancelled', sent: 4, replied: 3, omitted: ['redis-info'] });
    // Over what was measured: 2 operations done by the last listed reply, 100 µs after t0.
    expect(doc.totals).toEqual({ durationUs: 100, opsPerSec: 2e6 / 100, doneUs: 100 });
    expect(doc.counts.server).toEqual({ reads: 0, writes: 0, execUs: 0, source: 'redis-info', exclusive: false });
    expect(Object.keys(doc).at(-1)).toBe('incomplete');
  });

  it('leaves the builder as it was: snapshots grow as events arrive, and the run still finishes', () => {
    const b = halfway();
    const first = b.partial({ reason: 'in-progress', omitted });
    b.addBatch({ writes: [], reads: [{ atUs: 150, bytes: 7, replies: 1 }], outcomes: pongs(2) });
    const second = b.partial({ reason: 'in-progress', omitted });
    expect(first.commands).toHaveLength(2); // not changed by what came after
    expect(second.commands).toHaveLength(4);
    expect(second.commands[0]).toBe(first.commands[0]); // records are built once
    const doc = b.finish(SERVER);
    expect(doc.incomplete).toBeNull();
    expect(doc.commands).toEqual(second.commands);
  });

  it('drops what it is told was omitted, and keeps a failure\'s message', () => {
    const memory = { intervalMs: 10, server: { source: 'redis-client-list+info-memory' as const, samples: [] }, client: { source: 'node-process-memory' as const, samples: [] } };
    const doc = halfway().partial({ reason: 'failed', message: 'Redis went away', omitted: ['memory'] }, { memory }, SERVER);
    expect(doc.memory).toBeNull();
    expect(doc.counts.server).toEqual(SERVER);
    expect(doc.incomplete).toMatchObject({ reason: 'failed', message: 'Redis went away' });
    expect(halfway().partial({ reason: 'failed', omitted: [] }, { memory }).memory).toEqual(memory);
  });

  it('counts no operation of a transaction whose EXEC did not reply', () => {
    const b = new TraceBuilder({ ...HEADER, run: { ...HEADER.run, mode: 'multi', command: 'INCR', n: 4, operations: 2 } });
    b.addBatch({ writes: [{ atUs: 0, bytes: 80, commands: 4 }], reads: [{ atUs: 50, bytes: 20, replies: 3 }], outcomes: [{ reply: 'OK' }, { reply: 'QUEUED' }, { reply: 'QUEUED' }] });
    expect(b.partial({ reason: 'cancelled', omitted }).totals.opsPerSec).toBe(0);
  });
});
