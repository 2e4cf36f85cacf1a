// The cluster fields of a trace: a pipeline of keys with one {hash tag} (one slot, one node, one socket)
// against a 3-master cluster, with a MOVED it met, survives export → import unchanged, plain and compact;
// bad cluster data is refused by the schema with a message naming the field; a trace without them is
// read as before.
import { describe, expect, it } from 'vitest';
import { ClusterSchema, type ClusterRecord } from './cluster-format.ts';
import { decodeCompactValue, encodeCompactValue } from './compact-trace.ts';
import { TraceBuilder, TraceError } from './trace-builder.ts';
import type { TraceDocument } from './trace-format.ts';
import { parseTrace, serializeTrace } from './trace-io.ts';
import { thrownMessage } from '../test-support/thrown-message.ts';

const A = 'a1b5f2c7d4e6f8091a2b3c4d5e6f708192a3b4c5';
const B = 'b2c6e3d8f5a7091b2c3d4e5f6a7b8c9d0e1f2a3b';
const C = 'c3d7f4e9a6b8102c3d4e5f6a7b8c9d0e1f2a3b4c';

const cluster: ClusterRecord = {
  topology: {
    source: 'cluster-shards',
    nodes: [
      { id: A, address: '127.0.0.1:7601', role: 'master', slots: [[0, 5460]] },
      { id: B, address: '127.0.0.1:7602', role: 'master', slots: [[5461, 10922]] },
      { id: C, address: '127.0.0.1:7603', role: 'master', slots: [[10923, 16383]] },
      { id: 'd4e8a5f0b7c9213d4e5f6a7b8c9d0e1f2a3b4c5d', address: '127.0.0.1:7604', role: 'replica', masterId: A, slots: [] },
    ],
  },
  connections: [{ node: C, address: '127.0.0.1:7603' }],
  redirects: [],
  clientRefusal: null,
};

/** SET of 3 keys `pipescope:<run>:{t}:<i>`: one slot (15891, that of "t"), one node, one pipeline on one socket. */
function clusterTrace(): TraceDocument {
  const b = new TraceBuilder({
    run: {
      id: 'm3x9k2-0a1b2c3d', mode: 'pipeline', command: 'SET', n: 3, operations: 3, valueBytes: 8,
      startedAt: '2026-11-26T15:09:26.535Z', keyPattern: 'pipescope:m3x9k2-0a1b2c3d:{t}:{i}',
      warmup: null, injectedError: null, repeat: 0,
      probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false },
    },
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:7603' },
    rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 41, measuredMedianUs: 45.5, samples: 5 },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'raw', runtime: 'node v20.20.2' },
  });
  b.addBatch({
    writes: [{ atUs: 0, bytes: 180, commands: 3 }],
    reads: [{ atUs: 61.5, bytes: 15, replies: 3 }],
    outcomes: [{ reply: 'OK' }, { reply: 'OK' }, { reply: 'OK' }],
  });
  const doc = b.finish({ reads: 1, writes: 1, execUs: 3, source: 'redis-info', exclusive: true }, { doneUs: 70, cluster });
  // Each command's slot, node and socket (as a cluster engine records them), in the schema's key order: before the reply.
  doc.commands = doc.commands.map((command) => {
    const { reply, ...times } = command as { reply: string; index: number; sentUs: number; repliedUs: number };
    return { ...times, slot: 15891, node: C, connection: 0, reply };
  });
  return doc;
}

describe('cluster fields', () => {
  it('round-trip through export and import, plain and compact', () => {
    const doc = clusterTrace();
    const text = serializeTrace(doc);
    const again = parseTrace(text);
    expect(again.cluster).toEqual(cluster);
    expect(again.commands[1]).toMatchObject({ slot: 15891, node: C, connection: 0 });
    expect(serializeTrace(again)).toBe(text);
    const compact = JSON.stringify(encodeCompactValue(JSON.parse(text)));
    expect(JSON.stringify(decodeCompactValue(JSON.parse(compact)))).toBe(text);
  });

  it('each write\'s and read\'s socket is carried by the builder and survives import', () => {
    // Two sockets: command 0 to one node, command 1 to another, each answered on its own socket.
    const header = clusterTrace();
    const two = new TraceBuilder({ run: { ...header.run, n: 2, operations: 2 }, redis: header.redis, rtt: header.rtt, recorder: header.recorder });
    two.addBatch({
      writes: [{ atUs: 0, bytes: 60, commands: 1, connection: 0 }, { atUs: 2, bytes: 60, commands: 1, connection: 1 }],
      reads: [{ atUs: 50, bytes: 5, replies: 1, connection: 0 }, { atUs: 52, bytes: 5, replies: 1, connection: 1 }],
      outcomes: [{ reply: 'OK' }, { reply: 'OK' }],
    });
    const doc = two.finish({ reads: 2, writes: 2, execUs: 2, source: 'redis-info', exclusive: true }, {
      cluster: { ...cluster, connections: [{ node: A, address: '127.0.0.1:7601' }, { node: C, address: '127.0.0.1:7603' }] },
    });
    expect(doc.writes.map((w) => w.connection)).toEqual([0, 1]);
    expect(doc.reads.map((r) => r.connection)).toEqual([0, 1]);
    const again = parseTrace(serializeTrace(doc));
    expect(again.writes).toEqual(doc.writes);
    expect(again.reads).toEqual(doc.reads);
  });

  it('a redirect and a client library\'s refusal are recorded with their text', () => {
    const parsed = ClusterSchema.parse({
      ...cluster,
      redirects: [{ atUs: 88, command: 4, kind: 'MOVED', slot: 9233, from: A, to: '127.0.0.1:7602', error: 'MOVED 9233 127.0.0.1:7602', followedBy: 9 }],
      clientRefusal: { library: 'ioredis 6.0.0', message: 'All keys in the pipeline should belong to the same slots allocation group' },
    });
    expect(parsed.redirects[0]!.error).toBe('MOVED 9233 127.0.0.1:7602');
  });

  it('refuses a slot out of range and an unknown redirect kind, naming the field', () => {
    const bad = JSON.parse(serializeTrace(clusterTrace()));
    bad.commands[0].slot = 16384;
    expect(thrownMessage(() => parseTrace(JSON.stringify(bad)), TraceError)).toMatch(/commands\.0\.slot/);
    const kind = JSON.parse(serializeTrace(clusterTrace()));
    kind.cluster.redirects = [{ atUs: 1, command: 0, kind: 'REDIRECT', from: A, error: 'x' }];
    expect(thrownMessage(() => parseTrace(JSON.stringify(kind)), TraceError)).toMatch(/cluster\.redirects\.0\.kind/);
  });

  it('a trace without them is a single Redis, as before', () => {
    const doc = clusterTrace();
    delete doc.cluster;
    doc.commands = doc.commands.map(({ slot: _s, node: _n, connection: _c, ...rest }) => rest);
    expect(parseTrace(serializeTrace(doc)).cluster).toBeUndefined();
  });
});

describe('per-node INFO counters', () => {
  const counters = {
    node: A, reads: 2, writes: 2, exclusive: true,
    errors: { MOVED: 1, CROSSSLOT: 1 },
    rejectedCalls: { get: 1, mset: 1 },
  };

  it('are optional, and survive export and import, plain and compact', () => {
    const doc = clusterTrace();
    doc.cluster = { ...doc.cluster!, nodeCounters: [counters] };
    const text = serializeTrace(doc);
    expect(parseTrace(text).cluster!.nodeCounters).toEqual([counters]);
    const compact = JSON.stringify(encodeCompactValue(JSON.parse(text)));
    expect(JSON.stringify(decodeCompactValue(JSON.parse(compact)))).toBe(text);
    expect(ClusterSchema.parse(cluster).nodeCounters).toBeUndefined();
  });

  it('refuses a negative count, naming the field', () => {
    const doc = JSON.parse(serializeTrace(clusterTrace()));
    doc.cluster.nodeCounters = [{ ...counters, rejectedCalls: { get: -1 } }];
    expect(thrownMessage(() => parseTrace(JSON.stringify(doc)), TraceError)).toMatch(/cluster\.nodeCounters\.0\.rejectedCalls\.get/);
  });
});
