// A cluster run's replies are matched per socket: writes complete commands in one order across the run,
// and each socket's reads answer that socket's commands in the order they were written on it, whatever
// the other sockets did meanwhile. Such a trace is built, exported and imported unchanged; a read that
// answers more than its socket was asked, or before its commands were written, is refused in words; a run
// whose events mix sockets and no socket is refused; a partial document lists only the leading run of
// answered commands. A single Redis (no socket named) is matched in one order, as before.
import { describe, expect, it } from 'vitest';
import type { ClusterRecord } from './cluster-format.ts';
import { TraceBuilder, TraceError, type ServerCounts, type TraceHeader } from './trace-builder.ts';
import { parseTrace, serializeTrace } from './trace-io.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

const SERVER: ServerCounts = { reads: 3, writes: 3, execUs: 4, source: 'redis-info', exclusive: true };
const A = 'a1b5f2c7d4e6f8091a2b3c4d5e6f708192a3b4c5';
const B = 'b2c6e3d8f5a7091b2c3d4e5f6a7b8c9d0e1f2a3b';

const cluster: ClusterRecord = {
  topology: {
    source: 'cluster-shards',
    nodes: [
      { id: A, address: '127.0.0.1:7601', role: 'master', slots: [[0, 8191]] },
      { id: B, address: '127.0.0.1:7602', role: 'master', slots: [[8192, 16383]] },
    ],
  },
  connections: [{ node: A, address: '127.0.0.1:7601' }, { node: B, address: '127.0.0.1:7602' }],
  redirects: [],
  clientRefusal: null,
};

function header(n: number): TraceHeader {
  return {
    run: {
      id: 'm3x9k2-0a1b2c3d', mode: 'pipeline', command: 'SET', n, operations: n, valueBytes: 8,
      startedAt: '2026-11-26T15:09:26.535Z', keyPattern: 'pipescope:m3x9k2-0a1b2c3d:key:{i}',
      warmup: null, injectedError: null, repeat: 0,
      probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false },
    },
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:7601' },
    rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 41, measuredMedianUs: 45.5, samples: 5 },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'raw', runtime: 'node v20.20.2' },
  };
}

const oks = (n: number) => Array.from({ length: n }, () => ({ reply: 'OK' }));
const traceErrorOf = (action: () => unknown): string => thrownMessage(action, TraceError);

/** Commands 0 and 2 on socket 0, 1 and 3 on socket 1, one write each; socket 1 answers first, then socket 0 in two reads. */
function interleaved(): TraceBuilder {
  const b = new TraceBuilder(header(4));
  b.addBatch({
    writes: [
      { atUs: 0, bytes: 40, commands: 1, connection: 0 },
      { atUs: 2, bytes: 40, commands: 1, connection: 1 },
      { atUs: 4, bytes: 40, commands: 1, connection: 0 },
      { atUs: 6, bytes: 40, commands: 1, connection: 1 },
    ],
    reads: [
      { atUs: 30, bytes: 10, replies: 2, connection: 1 },
      { atUs: 35, bytes: 5, replies: 1, connection: 0 },
      { atUs: 60, bytes: 5, replies: 1, connection: 0 },
    ],
    outcomes: oks(4),
  });
  return b;
}

describe('replies matched per socket', () => {
  it('each socket answers its own commands in its own order', () => {
    const doc = interleaved().finish(SERVER, { cluster });
    expect(doc.commands.map((c) => [c.index, c.sentUs, c.repliedUs])).toEqual([[0, 0, 35], [1, 2, 30], [2, 4, 60], [3, 6, 30]]);
    expect(doc.reads.map((r) => [r.connection, r.firstReply, r.replies])).toEqual([[1, 1, 2], [0, 0, 1], [0, 2, 1]]);
    expect(doc.totals.durationUs).toBe(60); // the latest reply, on socket 0, not the last command's socket order
    expect(doc.counts.client).toMatchObject({ writes: 4, reads: 3, bytesOut: 160, bytesIn: 20 });
  });

  it('such a trace survives export and import byte for byte', () => {
    const text = serializeTrace(interleaved().finish(SERVER, { cluster }));
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });

  it('an imported read whose first reply is not its socket\'s next is refused', () => {
    const bad = JSON.parse(serializeTrace(interleaved().finish(SERVER, { cluster })));
    bad.reads[1].firstReply = 1; // as if socket 0's read answered in the run's one order
    expect(traceErrorOf(() => parseTrace(JSON.stringify(bad)))).toBe('Invalid trace: read 1 names reply 1 as its first, but its socket\'s next reply was 0.');
  });

  it('one read on each socket completing a pipeline split in two, answered in the opposite order', () => {
    const b = new TraceBuilder(header(6));
    b.addBatch({
      writes: [{ atUs: 0, bytes: 120, commands: 3, connection: 0 }, { atUs: 1, bytes: 120, commands: 3, connection: 1 }],
      reads: [{ atUs: 20, bytes: 15, replies: 3, connection: 1 }, { atUs: 25, bytes: 15, replies: 3, connection: 0 }],
      outcomes: oks(6),
    });
    const doc = b.finish(SERVER, { cluster });
    expect(doc.commands.map((c) => c.repliedUs)).toEqual([25, 25, 25, 20, 20, 20]);
    expect(doc.reads.map((r) => r.firstReply)).toEqual([3, 0]);
  });

  it('a read answering more than its socket was asked is refused in words', () => {
    const b = new TraceBuilder(header(2));
    b.addWrite({ atUs: 0, bytes: 40, commands: 1, connection: 0 });
    b.addWrite({ atUs: 1, bytes: 40, commands: 1, connection: 1 });
    expect(traceErrorOf(() => b.addRead({ atUs: 20, bytes: 10, replies: 2, connection: 0 }))).toBe(
      'Read at 20 µs on socket 0 completes 2 replies, but only 1 of its commands were waiting for one (0 replies so far).',
    );
    expect(traceErrorOf(() => new TraceBuilder(header(1)).addRead({ atUs: 3, bytes: 5, replies: 1, connection: 0 }))).toBe(
      'Read at 3 µs on socket 0 arrived before any write.',
    );
  });

  it('a reply before its request on that socket is refused', () => {
    const b = new TraceBuilder(header(2));
    b.addWrite({ atUs: 0, bytes: 40, commands: 1, connection: 0 });
    b.addWrite({ atUs: 50, bytes: 40, commands: 1, connection: 1 });
    expect(traceErrorOf(() => b.addRead({ atUs: 40, bytes: 5, replies: 1, connection: 1 }))).toBe(
      'Reply 1 arrived at 40 µs, before its request was written at 50 µs.',
    );
  });

  it('events that mix sockets and no socket, or sockets and the delay proxy, are refused', () => {
    const named = new TraceBuilder(header(2));
    named.addWrite({ atUs: 0, bytes: 40, commands: 1, connection: 0 });
    expect(traceErrorOf(() => named.addWrite({ atUs: 1, bytes: 40, commands: 1 }))).toMatch(/^Write at 1 µs names no socket, but the run's first write did/);
    const plain = new TraceBuilder(header(2));
    plain.addWrite({ atUs: 0, bytes: 40, commands: 2 });
    expect(traceErrorOf(() => plain.addRead({ atUs: 9, bytes: 5, replies: 1, connection: 0 }))).toMatch(/^Read at 9 µs names a socket, but the run's first write did not/);
    expect(traceErrorOf(() => named.addProxyToServer({ atUs: 2, bytes: 40, commands: 1 }))).toMatch(/delay proxy has one socket/);
  });

  it('a partial document lists the leading commands that have their replies, and imports', () => {
    const b = new TraceBuilder(header(4));
    b.addBatch({
      writes: [{ atUs: 0, bytes: 80, commands: 2, connection: 0 }, { atUs: 1, bytes: 80, commands: 2, connection: 1 }],
      reads: [{ atUs: 20, bytes: 10, replies: 2, connection: 1 }, { atUs: 22, bytes: 5, replies: 1, connection: 0 }],
      outcomes: oks(4),
    });
    // Commands 0, 2 and 3 answered; 1 not yet: only command 0 is listed.
    const doc = b.partial({ reason: 'cancelled', omitted: [] }, { cluster });
    expect(doc.commands.map((c) => [c.index, c.repliedUs])).toEqual([[0, 22]]);
    expect(doc.incomplete).toMatchObject({ sent: 4, replied: 3 });
    expect(doc.totals.durationUs).toBe(22);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
    expect(b.progress).toMatchObject({ sent: 4, replied: 3 });
  });
});
