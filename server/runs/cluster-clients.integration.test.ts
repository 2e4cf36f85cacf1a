// ioredis's and node-redis's cluster clients on a real Redis Cluster (3 masters, started by the test),
// named by the URL of one node. Each library routes its own commands; the trace says, from the bytes
// on each of its sockets, which command went to which node, and what each node answered:
// - ioredis pipeline: keys of one slot go to their node in one write; keys spread over the nodes are
//   refused by ioredis before anything is written (clientRefusal, no write, no read, no key).
// - ioredis auto-pipelining and node-redis same-tick batching: one write per node.
// - node-redis execAsPipeline: every command to the first key's node; the others answered MOVED,
//   exactly as Redis sent them, listed as redirects; node-redis threw the first MOVED at its caller.
// - sequential: each command to its node, one at a time.
// Every trace imports unchanged; no pipescope:* key is left on any node, a user's key is unchanged,
// also after a cancel mid-run.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { backgroundSettled } from './background-work.ts';
import { TraceBuilder } from '../../trace/format/trace-builder.ts';
import { decodeBatch, encodeBatch } from '../../trace/protocol/live-protocol.ts';
import { RunSpecSchema } from '../../trace/format/run-request.ts';
import { ClusterNotSupportedError } from './cluster-refusal.ts';
import { runRounds } from './run-rounds.ts';
import { executeRun, type RunEnd } from './run-executor.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(2)));
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall();
  await context.client.set('user:precious', 'kept');
});

const masters = () => context.cluster.nodes.filter((node) => node.role === 'master');
const ownerOf = (slot: number) => masters().find((node) => node.slots![0] <= slot && slot <= node.slots![1])!;
const keyOf = (doc: TraceDocument, i: number) => doc.run.keyPattern.replace('{i}', String(i));
const outcomeOf = (command: TraceDocument['commands'][number]) => ('reply' in command ? command.reply : command.error);

/** The trace's topology and sockets are the cluster's; each socket went to a master, one each. */
function expectSocketsPerMaster(doc: TraceDocument): void {
  const cluster = doc.cluster!;
  expect(cluster.topology.nodes).toEqual(session.cluster!.nodes);
  expect(cluster.connections.map((c) => c.node).sort()).toEqual(masters().map((node) => node.id).sort());
  for (const connection of cluster.connections) expect(connection.address).toBe(`${masters().find((m) => m.id === connection.node)!.host}:${masters().find((m) => m.id === connection.node)!.port}`);
}

/** Each command went to the node serving its slot, on that node's socket; each write carried one socket's commands. */
function expectEachOnItsOwner(doc: TraceDocument): void {
  const cluster = doc.cluster!;
  for (const command of doc.commands) {
    expect(command.node).toBe(ownerOf(command.slot!).id);
    expect(cluster.connections[command.connection!]!.node).toBe(command.node);
  }
  for (const write of doc.writes) {
    expect(doc.commands.slice(write.firstCommand, write.firstCommand + write.commands).every((c) => c.connection === write.connection)).toBe(true);
  }
}

async function expectNothingLeft(): Promise<void> {
  expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  expect(await context.client.get('user:precious')).toBe('kept');
}

function expectImportsUnchanged(doc: TraceDocument): void {
  const text = serializeTrace(doc);
  expect(serializeTrace(parseTrace(text))).toBe(text);
}

describe('ioredis Cluster', () => {
  it('a pipeline of keys on several nodes is refused by ioredis before anything is written', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 30, valueBytes: 16, engine: 'ioredis' });
    expect(doc.cluster!.clientRefusal).toMatchObject({ library: 'ioredis 6.0.0', message: 'All keys in the pipeline should belong to the same slots allocation group' });
    expect(doc.cluster!.clientRefusal!.atUs).toBeGreaterThan(0); // the time ioredis took to build the pipeline and refuse it
    expect(doc.recorder.client).toBe('ioredis 6.0.0');
    expect(doc.writes).toEqual([]);
    expect(doc.reads).toEqual([]);
    expect(doc.commands).toEqual([]);
    expect(doc.cluster!.redirects).toEqual([]);
    expect(doc.incomplete).toMatchObject({ reason: 'failed' });
    expect(doc.incomplete!.message).toContain('All keys in the pipeline should belong to the same slots allocation group');
    expectSocketsPerMaster(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('a pipeline of one slot\'s key goes to its node in one write, answered there', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'INCR', n: 20, valueBytes: 0, engine: 'ioredis' });
    expect(doc.cluster!.clientRefusal).toBeNull();
    expect(doc.writes).toHaveLength(1);
    expect(doc.writes[0]!.commands).toBe(20);
    expect(doc.commands.map(outcomeOf)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(doc.commands.every((c) => c.slot === calculateSlot(keyOf(doc, 0)))).toBe(true);
    expectSocketsPerMaster(doc);
    expectEachOnItsOwner(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('auto-pipelining: one write per node, each carrying that node\'s keys', async () => {
    const doc = await executeRun(session, 'auto', { command: 'SET', n: 60, valueBytes: 16, engine: 'ioredis' });
    expect(doc.writes).toHaveLength(3);
    expect(new Set(doc.writes.map((w) => w.connection))).toEqual(new Set([0, 1, 2]));
    expect(doc.commands.map(outcomeOf)).toEqual(Array(60).fill('OK'));
    // Every key of the run was written once, to its own slot.
    expect(doc.commands.map((c) => c.slot).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 60 }, (_, i) => calculateSlot(keyOf(doc, i))).sort((a, b) => a - b));
    expectSocketsPerMaster(doc);
    expectEachOnItsOwner(doc);
    expect(doc.counts.server.source).toBe('redis-info');
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('sequential: one command at a time, each to its node', async () => {
    const doc = await executeRun(session, 'sequential', { command: 'SET', n: 15, valueBytes: 8, engine: 'ioredis' });
    expect(doc.writes).toHaveLength(15);
    expect(doc.commands.map(outcomeOf)).toEqual(Array(15).fill('OK'));
    for (let i = 1; i < 15; i++) expect(doc.commands[i]!.sentUs).toBeGreaterThanOrEqual(doc.commands[i - 1]!.repliedUs);
    expect(new Set(doc.commands.map((c) => c.connection)).size).toBe(3);
    // In the workload's order: ioredis sent command i as the i-th.
    expect(doc.commands.map((c) => c.slot)).toEqual(Array.from({ length: 15 }, (_, i) => calculateSlot(keyOf(doc, i))));
    expectEachOnItsOwner(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });
});

describe('node-redis createCluster', () => {
  it('same-tick batching (auto): one write per node, each carrying that node\'s keys', async () => {
    const doc = await executeRun(session, 'auto', { command: 'SET', n: 60, valueBytes: 16, engine: 'node-redis' });
    expect(doc.recorder.client).toBe('node-redis 6.3.1');
    expect(doc.writes).toHaveLength(3);
    expect(new Set(doc.writes.map((w) => w.connection))).toEqual(new Set([0, 1, 2]));
    expect(doc.commands.map(outcomeOf)).toEqual(Array(60).fill('OK'));
    expectSocketsPerMaster(doc);
    expectEachOnItsOwner(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('execAsPipeline: every command to the first key\'s node, the others answered MOVED as Redis sent it', async () => {
    const movedCount = async (k: number) => Number(/errorstat_MOVED:count=(\d+)/.exec(await context.masters[k]!.info('errorstats'))?.[1] ?? 0);
    const before = await Promise.all(masters().map((_, k) => movedCount(k)));
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 30, valueBytes: 16, engine: 'node-redis' });
    const first = ownerOf(calculateSlot(keyOf(doc, 0)));
    expect(doc.writes.every((w) => w.connection === doc.writes[0]!.connection)).toBe(true);
    expect(doc.cluster!.connections[doc.writes[0]!.connection!]!.node).toBe(first.id);
    expect(doc.commands).toHaveLength(30);
    const expected = Array.from({ length: 30 }, (_, i) => {
      const slot = calculateSlot(keyOf(doc, i));
      const owner = ownerOf(slot);
      return owner.id === first.id ? 'OK' : `MOVED ${slot} ${owner.host}:${owner.port}`;
    });
    expect(doc.commands.map(outcomeOf)).toEqual(expected);
    const moved = expected.flatMap((text, i) => (text === 'OK' ? [] : [{ i, text }]));
    expect(moved.length).toBeGreaterThan(5); // keys spread over three masters
    expect(doc.cluster!.redirects.map((r) => ({ command: r.command, kind: r.kind, error: r.error, from: r.from, to: r.to, slot: r.slot })))
      .toEqual(moved.map(({ i, text }) => ({ command: i, kind: 'MOVED', error: text, from: first.id, to: text.split(' ')[2], slot: Number(text.split(' ')[1]) })));
    for (const redirect of doc.cluster!.redirects) expect(redirect.atUs).toBe(doc.commands[redirect.command]!.repliedUs);
    // What node-redis told its caller: the first MOVED, and none of the replies that succeeded.
    expect(doc.cluster!.clientError).toMatchObject({ library: 'node-redis 6.3.1', message: moved[0]!.text });
    expect(doc.cluster!.clientError!.atUs).toBeLessThanOrEqual(doc.totals.doneUs);
    // The node counted each MOVED it sent (INFO errorstats): Redis's view agrees with the wire's.
    const k = masters().indexOf(first);
    expect(await movedCount(k) - before[k]!).toBe(moved.length);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('execAsPipeline longer than one socket buffer: node-redis throws at the first MOVED and still writes the rest; all are recorded', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 2000, valueBytes: 16, engine: 'node-redis' });
    expect(doc.commands).toHaveLength(2000);
    expect(doc.writes.length).toBeGreaterThan(1); // 16 KiB at a time, the rest on 'drain'
    expect(new Set(doc.writes.map((w) => w.connection)).size).toBe(1);
    expect(doc.cluster!.clientError!.message).toMatch(/^MOVED \d+ 127\.0\.0\.1:\d+$/);
    // It threw before its last command was written.
    expect(doc.cluster!.clientError!.atUs).toBeLessThan(doc.writes.at(-1)!.atUs);
    expect(doc.cluster!.redirects.length).toBe(doc.commands.filter((c) => 'error' in c).length);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('execAsPipeline of one slot\'s key: one write to its node, every reply handed on, nothing thrown', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'INCR', n: 20, valueBytes: 0, engine: 'node-redis' });
    expect(doc.writes).toHaveLength(1);
    expect(doc.commands.map(outcomeOf)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(doc.cluster!.redirects).toEqual([]);
    expect(doc.cluster!.clientError).toBeUndefined();
    expectEachOnItsOwner(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });

  it('sequential: one command at a time, each to its node', async () => {
    const doc = await executeRun(session, 'sequential', { command: 'GET', n: 12, valueBytes: 8, engine: 'node-redis' });
    expect(doc.writes).toHaveLength(12);
    expect(doc.commands.map(outcomeOf)).toEqual(Array(12).fill('pipescop'));
    for (let i = 1; i < 12; i++) expect(doc.commands[i]!.sentUs).toBeGreaterThanOrEqual(doc.commands[i - 1]!.repliedUs);
    expectEachOnItsOwner(doc);
    expectImportsUnchanged(doc);
    await expectNothingLeft();
  });
});

describe('both libraries', () => {
  it.each(['ioredis', 'node-redis'] as const)('%s: a cancel mid-run leaves no key on any node', async (engine) => {
    const controller = new AbortController();
    let writtenBeforeCancel = 0;
    const run = executeRun(session, 'sequential', { command: 'SET', n: 20_000, valueBytes: 8, engine }, {
      onStart: () => setTimeout(() => {
        void pipescopeKeysOnEveryNode(context.masters).then((keys) => {
          writtenBeforeCancel = keys.filter((key) => key.includes(':key:')).length;
          controller.abort();
        });
      }, 50),
    }, controller.signal);
    await expect(run).rejects.toThrow(RunCancelledError);
    expect(writtenBeforeCancel).toBeGreaterThan(0);
    expect(writtenBeforeCancel).toBeLessThan(20_000);
    await backgroundSettled();
    await expectNothingLeft();
  });

  it.each(['ioredis', 'node-redis'] as const)('%s: streams its events as it runs; a live copy built from them, as the page gets them, equals the trace', async (engine) => {
    let live: TraceBuilder | undefined;
    let ended: RunEnd | undefined;
    let batches = 0;
    const doc = await executeRun(session, 'sequential', { command: 'SET', n: 1500, valueBytes: 8, engine }, {
      onStart: (header) => (live = new TraceBuilder(header)),
      onBatch: (_, batch) => {
        batches++;
        live!.addBatch(decodeBatch(JSON.parse(JSON.stringify(encodeBatch(batch)))));
      },
      onEnd: (_, end) => (ended = end),
    });
    expect(batches).toBeGreaterThan(1);
    const copy = live!.finish(ended!.server, { doneUs: ended!.doneUs, cluster: doc.cluster! });
    expect(copy.writes).toEqual(doc.writes);
    expect(copy.reads).toEqual(doc.reads);
    expect(copy.commands.map((c) => [c.repliedUs, outcomeOf(c)])).toEqual(doc.commands.map((c) => [c.repliedUs, outcomeOf(c)]));
    await expectNothingLeft();
  });

  it('a request repeated until certain: the refused mode recorded each round, and not holding the timed ones back', async () => {
    const spec = RunSpecSchema.parse({ command: 'SET', n: 50, valueBytes: 8, engine: 'ioredis', modes: ['pipeline', 'auto', 'sequential'], repeats: 'until-certain', memory: false, kernelTcp: false });
    const { rounds, stop, docs } = await runRounds(session, spec, () => ({}));
    expect(docs.filter((doc) => doc.run.mode === 'pipeline').every((doc) => doc.cluster!.clientRefusal !== null && doc.writes.length === 0)).toBe(true);
    expect(docs.filter((doc) => doc.run.mode === 'pipeline')).toHaveLength(rounds);
    expect(stop).toBe('certain'); // sequential against auto-pipelining, 50 SETs: far apart
    await expectNothingLeft();
  });

  it('what is not supported yet is still refused before anything is sent, in words', async () => {
    for (const [mode, spec] of [
      ['pipeline', { engine: 'ioredis', command: 'PING' }],
      ['chunked', { engine: 'node-redis', chunk: 5 }],
      ['auto', { engine: 'ioredis', rttMs: 1 }],
      ['multi', { engine: 'node-redis' }],
      ['sequential', { engine: 'ioredis', n: 100_001 }],
    ] as const) {
      const error = await executeRun(session, mode, { command: 'SET', n: 10, valueBytes: 16, ...spec }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(ClusterNotSupportedError);
      expect((error as Error).message).toMatch(/ioredis's and node-redis's pipeline, sequential and auto runs of SET, GET or INCR.*Nothing was sent and no key was written/);
    }
    await expectNothingLeft();
  });
});
