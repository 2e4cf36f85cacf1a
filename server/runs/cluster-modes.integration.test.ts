// The raw engine's modes on a real Redis Cluster (3 masters, started by the test): pipeline and
// sequential split by node, a pipeline's shares at once (parallel) or one node after another (serial),
// MULTI/EXEC and one MSET on one slot (the keys under one hash tag) and across slots, where Redis's
// own refusals (CROSSSLOT, MOVED while queueing, EXECABORT) reach the trace word for word. Per node: a
// warm-up, PINGs timed, INFO counters (read and write events, errorstats, rejected calls). The
// critical path's round trips are measured from the trace; no pipescope:* key is left on any node.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clusterRoundTrips } from '../../trace/derive/cluster-round-trips.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { executeRun } from './run-executor.ts';
import type { RunParameters } from './run/run-plan.ts';

const context = usePrivateCluster();
let session: RedisSession;

const CROSSSLOT = 'CROSSSLOT Keys in request don\'t hash to the same slot';
const EXECABORT = 'EXECABORT Transaction discarded because of previous errors.';

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(0)));
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall();
  await context.client.set('user:precious', 'kept');
});

const masterIds = () => context.cluster.nodes.filter((node) => node.role === 'master').map((node) => node.id);
const ownerOf = (slot: number) => context.cluster.nodes.find((node) => node.role === 'master' && node.slots![0] <= slot && slot <= node.slots![1])!.id;
const outcomeOf = (command: TraceDocument['commands'][number]) => ('reply' in command ? command.reply : command.error);

async function run(mode: Parameters<typeof executeRun>[1], spec: Partial<RunParameters>): Promise<TraceDocument> {
  const doc = await executeRun(session, mode, { command: 'SET', n: 30, valueBytes: 8, engine: 'raw', ...spec });
  const text = serializeTrace(doc);
  expect(serializeTrace(parseTrace(text))).toBe(text); // the trace imports unchanged
  expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  expect(await context.client.get('user:precious')).toBe('kept');
  return doc;
}

/** Per master: the counters are there, in connection order, and a node that got commands read and wrote. */
function expectNodeCounters(doc: TraceDocument): void {
  const counters = doc.cluster!.nodeCounters!;
  expect(counters.map((c) => c.node)).toEqual(masterIds());
  for (const [k, c] of counters.entries()) {
    const commands = doc.commands.filter((command) => command.connection === k).length;
    if (commands > 0) {
      expect(c.reads).toBeGreaterThanOrEqual(1);
      expect(c.writes).toBeGreaterThanOrEqual(1);
      expect(c.reads).toBeLessThanOrEqual(commands);
    } else {
      expect(c).toMatchObject({ reads: 0, writes: 0, errors: {}, rejectedCalls: {} });
    }
    expect(c.exclusive).toBe(true); // the private cluster has no other client
  }
  expect(doc.cluster!.connections.map((c) => c.node)).toEqual(masterIds());
  const rtts = doc.cluster!.connections.map((c) => c.rtt!);
  expect(doc.rtt.measuredMedianUs).toBe(Math.max(...rtts.map((r) => r.measuredMedianUs))); // the slowest node's
  expect(doc.run.warmup).not.toBeNull();
}

describe('a pipeline split by node', () => {
  it('keys spread, parallel: every share written before any reply; one round trip on the critical path, the slowest node', async () => {
    const doc = await run('pipeline', {});
    expect(doc.cluster!.split).toBe('parallel');
    expect(new Set(doc.writes.map((w) => w.connection))).toEqual(new Set([0, 1, 2]));
    expect(Math.max(...doc.writes.map((w) => w.atUs))).toBeLessThanOrEqual(Math.min(...doc.reads.map((r) => r.atUs)));
    expect(doc.commands.every((c) => outcomeOf(c) === 'OK')).toBe(true);
    for (const command of doc.commands) expect(command.node).toBe(ownerOf(command.slot!));
    const trips = clusterRoundTrips(doc)!;
    expect(trips).toMatchObject({ shape: 'parallel', criticalPath: 1 });
    expect(trips.perNode.map((node) => node.roundTrips)).toEqual([1, 1, 1]);
    expectNodeCounters(doc);
    expect(doc.cluster!.redirects).toEqual([]);
  });

  it('keys spread, serial: each node written only after the previous node answered; the sum of the nodes', async () => {
    const doc = await run('pipeline', { clusterSplit: 'serial' });
    expect(doc.cluster!.split).toBe('serial');
    const bySocket = [0, 1, 2].map((k) => doc.commands.filter((c) => c.connection === k));
    for (let k = 1; k < 3; k++) expect(bySocket[k]![0]!.sentUs).toBeGreaterThanOrEqual(Math.max(...bySocket[k - 1]!.map((c) => c.repliedUs)));
    const trips = clusterRoundTrips(doc)!;
    expect(trips).toMatchObject({ shape: 'serial', criticalPath: 3 });
    expect(trips.perNode.map((node) => node.roundTrips)).toEqual([1, 1, 1]);
    expectNodeCounters(doc);
  });

  for (const clusterSplit of ['parallel', 'serial'] as const) {
    it(`keys under one hash tag, ${clusterSplit}: one slot, one node, one write, one round trip`, async () => {
      const doc = await run('pipeline', { clusterKeys: 'hashtag', clusterSplit });
      expect(doc.run.keyPattern).toMatch(/^pipescope:\{[0-9a-z]+-[0-9a-f]{8}\}:key:\{i\}$/);
      const slots = new Set(doc.commands.map((c) => c.slot));
      expect(slots.size).toBe(1);
      expect([...slots][0]).toBe(calculateSlot(doc.run.id));
      expect(new Set(doc.commands.map((c) => c.node))).toEqual(new Set([ownerOf([...slots][0]!)]));
      expect(doc.writes).toHaveLength(1);
      expect(clusterRoundTrips(doc)).toMatchObject({ shape: 'one-node', criticalPath: 1 });
      expectNodeCounters(doc);
    });
  }
});

describe('sequential on a cluster', () => {
  for (const clusterKeys of ['spread', 'hashtag'] as const) {
    it(`keys ${clusterKeys}: one round trip per command on the critical path, each on its node`, async () => {
      const doc = await run('sequential', { n: 12, clusterKeys });
      const trips = clusterRoundTrips(doc)!;
      expect(trips).toMatchObject({ shape: 'sequential', criticalPath: 12 });
      expect(trips.perNode.reduce((sum, node) => sum + node.roundTrips, 0)).toBe(12);
      if (clusterKeys === 'hashtag') expect(trips.perNode.filter((node) => node.commands > 0)).toHaveLength(1);
      expectNodeCounters(doc);
    });
  }
});

describe('MULTI/EXEC on a cluster', () => {
  it('on one slot (hash tag): queued on one node, EXEC runs them all', async () => {
    const doc = await run('multi', { n: 10, clusterKeys: 'hashtag' });
    expect(doc.commands.map(outcomeOf)).toEqual(['OK', ...Array(10).fill('QUEUED'), expect.anything()]);
    expect(doc.commands.at(-1)).not.toHaveProperty('error');
    expect(new Set(doc.commands.map((c) => c.connection)).size).toBe(1);
    expect(doc.cluster!.redirects).toEqual([]);
    expect(clusterRoundTrips(doc)).toMatchObject({ shape: 'one-node', criticalPath: 1 });
    expectNodeCounters(doc);
  });

  it('across slots: the node refuses what is not its own, then EXEC, in Redis\'s words; nothing is written', async () => {
    const doc = await run('multi', { n: 10 });
    const node = doc.commands[0]!.node!;
    const queued = doc.commands.slice(1, -1);
    expect(queued.every((c) => c.node === node)).toBe(true); // the whole transaction to the first key's node
    const foreign = queued.filter((c) => ownerOf(c.slot!) !== node);
    const k = doc.commands[0]!.connection!;
    const nodeAddress = (id: string) => doc.cluster!.topology.nodes.find((n) => n.id === id)!.address;
    for (const c of queued) {
      if (ownerOf(c.slot!) === node) expect(outcomeOf(c)).toBe('QUEUED');
      else expect(outcomeOf(c)).toBe(`MOVED ${c.slot} ${nodeAddress(ownerOf(c.slot!))}`);
    }
    const exec = doc.commands.at(-1)!;
    // A queued command refused (MOVED): EXEC aborts. All its own but over several slots: EXEC refused with CROSSSLOT.
    expect(outcomeOf(exec)).toBe(foreign.length > 0 ? EXECABORT : CROSSSLOT);
    const redirects = doc.cluster!.redirects;
    expect(redirects.map((r) => r.kind)).toEqual([...foreign.map(() => 'MOVED'), ...(foreign.length > 0 ? [] : ['CROSSSLOT'])]);
    for (const r of redirects) {
      expect(r.from).toBe(node);
      expect(r.error).toBe(outcomeOf(doc.commands[r.command]!));
      expect(r).not.toHaveProperty('followedBy');
    }
    const counters = doc.cluster!.nodeCounters![k]!;
    if (foreign.length > 0) {
      expect(counters.errors).toEqual({ MOVED: foreign.length, EXECABORT: 1 });
      expect(counters.rejectedCalls).toEqual({ set: foreign.length });
    } else {
      expect(counters.errors).toEqual({ CROSSSLOT: 1 });
      expect(counters.rejectedCalls).toEqual({ exec: 1 });
    }
    expectNodeCounters(doc);
  });
});

describe('one MSET on a cluster', () => {
  it('across slots: refused with CROSSSLOT at the server, counted as a rejected call there', async () => {
    const doc = await run('multikey', { n: 10 });
    expect(doc.commands).toHaveLength(1);
    const [mset] = doc.commands;
    expect(outcomeOf(mset!)).toBe(CROSSSLOT);
    expect(mset).not.toHaveProperty('slot'); // its keys have no one slot
    expect(doc.cluster!.redirects).toEqual([{ atUs: mset!.repliedUs, command: 0, kind: 'CROSSSLOT', from: mset!.node, error: CROSSSLOT }]);
    const counters = doc.cluster!.nodeCounters![mset!.connection!]!;
    expect(counters.errors).toEqual({ CROSSSLOT: 1 });
    expect(counters.rejectedCalls).toEqual({ mset: 1 });
    expectNodeCounters(doc);
  });

  it('on one slot (hash tag): one MSET, OK, on the node of that slot', async () => {
    const doc = await run('multikey', { n: 10, clusterKeys: 'hashtag' });
    expect(doc.commands.map(outcomeOf)).toEqual(['OK']);
    expect(doc.commands[0]!.slot).toBe(calculateSlot(doc.run.id));
    expect(doc.commands[0]!.node).toBe(ownerOf(calculateSlot(doc.run.id)));
    expect(doc.cluster!.redirects).toEqual([]);
    expect(doc.cluster!.nodeCounters![doc.commands[0]!.connection!]!.rejectedCalls).toEqual({});
    expectNodeCounters(doc);
  });
});
