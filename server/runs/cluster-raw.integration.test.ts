// The raw engine split by node on a real Redis Cluster (3 masters, started by the test), named by the URL
// of one node: one connection per master, each command sent to the master serving its slot, a pipeline's
// shares written to every node at once. The trace imports and exports unchanged; each command's node
// owns its slot; each socket's writes carry only its node's commands; the replies are Redis's own; no
// pipescope:* key is left on any node and a user's key is unchanged. Other modes and probes are still
// refused before anything is sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { TraceBuilder, type ProbeBatch, type TraceHeader } from '../../trace/format/trace-builder.ts';
import { ServerMessageSchema, decodeBatch, encodeBatch, finishRun, type RunEndMessage } from '../../trace/protocol/live-protocol.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { ClusterNotSupportedError } from './cluster-refusal.ts';
import { executeRun, type RunEnd } from './run-executor.ts';
import { backgroundSettled } from './background-work.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(1)));
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall();
  await context.client.set('user:precious', 'kept');
});

/** Each command's node is the one the test's cluster says serves its key's slot, and its socket goes to that node. */
function expectEachOnItsOwner(doc: TraceDocument): void {
  const cluster = doc.cluster!;
  const ownerOf = (slot: number) => context.cluster.nodes.find((node) => node.role === 'master' && node.slots![0] <= slot && slot <= node.slots![1])!.id;
  const keyOf = (i: number) => doc.run.keyPattern.replace('{i}', String(i));
  for (const command of doc.commands) {
    expect(command.slot).toBeTypeOf('number');
    expect(command.node).toBe(ownerOf(command.slot!));
    expect(cluster.connections[command.connection!]!.node).toBe(command.node);
  }
  // Every key of the run was sent once, to its own slot.
  const slots = doc.commands.map((command) => command.slot).sort((a, b) => a! - b!);
  expect(slots).toEqual(Array.from({ length: doc.run.operations }, (_, i) => calculateSlot(keyOf(i))).sort((a, b) => a - b));
  for (const write of doc.writes) {
    const carried = doc.commands.slice(write.firstCommand, write.firstCommand + write.commands);
    expect(carried.every((command) => command.connection === write.connection)).toBe(true);
  }
}

describe('the raw engine split by node', () => {
  it('a pipeline: one write per master, all at once, replies read per socket; the trace imports', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 60, valueBytes: 16, engine: 'raw' });
    expect(doc.cluster!.connections.map((c) => c.node)).toEqual(context.cluster.nodes.filter((node) => node.role === 'master').map((node) => node.id));
    expect(doc.cluster!.topology.nodes).toEqual(session.cluster!.nodes);
    expect(new Set(doc.writes.map((w) => w.connection))).toEqual(new Set([0, 1, 2]));
    expect(doc.writes.reduce((sum, w) => sum + w.commands, 0)).toBe(60);
    // Every node's share written before any reply arrived: the nodes worked in parallel.
    expect(Math.max(...doc.writes.map((w) => w.atUs))).toBeLessThanOrEqual(Math.min(...doc.reads.map((r) => r.atUs)));
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    expectEachOnItsOwner(doc);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
    expect(doc.counts.server.source).toBe('redis-info');
    expect(doc.counts.server.reads).toBeGreaterThanOrEqual(3); // each master read its share at least once
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('sequential: each command to its node, one write and one read each', async () => {
    const doc = await executeRun(session, 'sequential', { command: 'SET', n: 15, valueBytes: 8, engine: 'raw' });
    expect(doc.writes).toHaveLength(15);
    expect(doc.reads).toHaveLength(15);
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array(15).fill('OK'));
    expect(new Set(doc.commands.map((c) => c.connection))).toEqual(new Set([0, 1, 2]));
    // One at a time: each command written only after the one before was answered, whichever node it went to.
    for (let i = 1; i < 15; i++) expect(doc.commands[i]!.sentUs).toBeGreaterThanOrEqual(doc.commands[i - 1]!.repliedUs);
    expect(doc.writes.map((w) => w.connection)).toEqual(doc.commands.map((c) => c.connection));
    expectEachOnItsOwner(doc);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('streams its events while it runs: a live copy built from the batches, as sent to the page, equals the trace', async () => {
    let live: TraceBuilder | undefined;
    let liveHeader: TraceHeader | undefined;
    const sent: ProbeBatch[] = [];
    let ended: RunEnd | undefined;
    let batches = 0;
    const doc = await executeRun(session, 'sequential', { command: 'SET', n: 3000, valueBytes: 8, engine: 'raw' }, {
      onStart: (header) => {
        live = new TraceBuilder(header);
        liveHeader = header;
      },
      onBatch: (_, batch) => {
        batches++;
        const decoded = decodeBatch(JSON.parse(JSON.stringify(encodeBatch(batch)))); // as the page gets it over the WebSocket
        sent.push(decoded);
        live!.addBatch(decoded);
      },
      onEnd: (_, end) => (ended = end),
    });
    expect(batches).toBeGreaterThan(1); // flushed during the run, not only at its end
    expect(ended).toMatchObject({ server: doc.counts.server, doneUs: doc.totals.doneUs, serverCpu: doc.serverCpu, probeCosts: doc.probeCosts });
    expect(doc.probeCosts!.flushes.count).toBeGreaterThan(0);
    const copy = live!.finish(ended!.server, { doneUs: ended!.doneUs, cluster: ended!.clusterRun!.record });
    expect(copy.writes).toEqual(doc.writes);
    expect(copy.reads).toEqual(doc.reads);
    expect(copy.commands.map((c) => c.repliedUs)).toEqual(doc.commands.map((c) => c.repliedUs));
    // The end as the page gets it (live-requests.ts): the cluster and each command's socket and slot, through JSON and the schema.
    const { record, places } = ended!.clusterRun!;
    const message = ServerMessageSchema.parse(JSON.parse(JSON.stringify({
      type: 'run-end', requestId: 'r1', runId: doc.run.id, server: ended!.server, doneUs: ended!.doneUs,
      cluster: record, commandConnections: places.connections, commandSlots: places.slots,
    })));
    const builder = new TraceBuilder(liveHeader!);
    for (const batch of sent) builder.addBatch(batch);
    const page = finishRun(builder, message as RunEndMessage);
    expect(page.cluster).toEqual(doc.cluster);
    expect(page.commands).toEqual(doc.commands);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('one counter: every INCR on the node serving its slot, answered 1 … n', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'INCR', n: 20, valueBytes: 0, engine: 'raw' });
    expect(doc.writes).toHaveLength(1);
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expectEachOnItsOwner(doc);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('a cancel mid-run leaves no key on any node', async () => {
    const controller = new AbortController();
    let writtenBeforeCancel = 0;
    const run = executeRun(session, 'sequential', { command: 'SET', n: 20_000, valueBytes: 8, engine: 'raw' }, {
      onStart: () => setTimeout(() => {
        void pipescopeKeysOnEveryNode(context.masters).then((keys) => {
          writtenBeforeCancel = keys.filter((key) => key.includes(':key:')).length;
          controller.abort();
        });
      }, 50),
    }, controller.signal);
    await expect(run).rejects.toThrow(RunCancelledError);
    expect(writtenBeforeCancel).toBeGreaterThan(0); // cancelled mid-run, with keys on the nodes
    expect(writtenBeforeCancel).toBeLessThan(20_000);
    await backgroundSettled(); // a Cancel is answered at once; the keys go in the run's clean-up, right after
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('the kernel TCP figures, asked by default, are left out rather than refused, and the trace says so', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 12, valueBytes: 16, engine: 'raw', kernelTcp: true });
    expect(doc.run.probes.kernelTcp).toBe(false);
    expect(doc.kernelTcp).toBeNull();
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('other modes, and probes, are still refused before anything is sent', async () => {
    for (const [mode, spec] of [
      ['chunked', { engine: 'ioredis', chunk: 5 }],
      ['eval', { engine: 'raw' }],
      ['pipeline', { engine: 'raw', serverTrace: true }],
    ] as const) {
      const error = await executeRun(session, mode, { command: 'SET', n: 10, valueBytes: 16, ...spec }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(ClusterNotSupportedError);
      expect((error as Error).message).toMatch(/only the raw engine's pipeline, sequential, multi and multikey runs.*Nothing was sent and no key was written/);
    }
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});
