// Added delay on a real Redis Cluster (3 masters, started by the test): every master's socket goes through a
// delay proxy of its own, so each node's round trips show on loopback. Sequential pays about one added RTT
// per command whichever node it goes to; a pipeline split by node pays about one for all the nodes at once
// (they work in parallel). Each node's RTT is measured through its proxy and recorded with its connection,
// whose address stays the node's own; the proxies' ends are gone after the run, and no key is left. The
// node address map the cluster clients take (ioredis natMap, node-redis nodeAddressMap) sends every
// connection they open, including those to nodes they learn of from the cluster, through the proxies.
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { NodeDelayProxies } from '../probes/node-delay-proxies.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { backgroundSettled } from './background-work.ts';
import { executeRun } from './run-executor.ts';

const context = usePrivateCluster();
let session: RedisSession;
const ADDED_MS = 5;
/** The least a round trip through a proxy may take: the proxy takes at most 5 % off each hold for its own hop. */
const FLOOR_US = ADDED_MS * 1000 * 0.95;

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

const masterAddresses = () => context.cluster.nodes.filter((node) => node.role === 'master').map((node) => `${node.host}:${node.port}`);

/** Clients named as a run's on any master (CLIENT LIST per node), after giving their sockets a moment to close. */
async function runClientsLeft(): Promise<string[]> {
  let left: string[] = [];
  for (let attempt = 0; attempt < 50; attempt++) {
    const lists = await Promise.all(context.masters.map((master) => master.client('LIST') as Promise<string>));
    left = lists.flatMap((list) => list.split('\n').filter((line) => / name=pipescope-run-/.test(line)));
    if (left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return left;
}

/** Each node's RTT measured through its proxy, at least what was added; the run's is the slowest node's; addresses the nodes' own. */
function expectMeasuredPerNode(doc: TraceDocument): void {
  const connections = doc.cluster!.connections;
  expect(connections.map((c) => c.address)).toEqual(masterAddresses());
  for (const { rtt } of connections) {
    expect(rtt!.measuredMedianUs).toBeGreaterThanOrEqual(ADDED_MS * 1000);
    expect(rtt!.measuredMinUs).toBeGreaterThanOrEqual(FLOOR_US);
    expect(rtt!.directMedianUs!).toBeLessThan(rtt!.measuredMedianUs - FLOOR_US);
    expect(rtt!.measuredP10Us).toBeLessThanOrEqual(rtt!.measuredP90Us!);
  }
  expect(doc.rtt).toMatchObject({ addedMs: ADDED_MS, jitterMs: 0, mechanism: 'proxy' });
  expect(doc.rtt.measuredMedianUs).toBe(Math.max(...connections.map((c) => c.rtt!.measuredMedianUs)));
}

describe('added delay, a proxy per node', () => {
  it('sequential: every command pays its node\'s round trip, so N commands take about N × RTT', async () => {
    const n = 15;
    const doc = await executeRun(session, 'sequential', { command: 'SET', n, valueBytes: 8, engine: 'raw', rttMs: ADDED_MS });
    expectMeasuredPerNode(doc);
    expect(new Set(doc.commands.map((c) => c.connection))).toEqual(new Set([0, 1, 2]));
    for (const command of doc.commands) {
      expect('reply' in command && command.reply).toBe('OK');
      expect(command.repliedUs - command.sentUs).toBeGreaterThanOrEqual(FLOOR_US);
    }
    expect(doc.totals.doneUs).toBeGreaterThanOrEqual(n * FLOOR_US);
    // About n round trips, each to its node: not much more than n × the slowest node's measured RTT.
    expect(doc.totals.doneUs).toBeLessThan(2 * n * doc.rtt.measuredMedianUs);
    console.log(`cluster, added ${ADDED_MS} ms, sequential ${n} × SET: ${(doc.totals.doneUs / 1000).toFixed(1)} ms; ` +
      `per node RTT ${doc.cluster!.connections.map((c) => (c.rtt!.measuredMedianUs / 1000).toFixed(2)).join(', ')} ms`);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
    expect(await runClientsLeft()).toEqual([]);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('a pipeline split by node: the nodes answer in parallel, about one RTT for all of them', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 60, valueBytes: 16, engine: 'raw', rttMs: ADDED_MS });
    expectMeasuredPerNode(doc);
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    // Every node's share written before any node's reply came back, and each node answered after its own round trip.
    expect(Math.max(...doc.writes.map((w) => w.atUs))).toBeLessThan(Math.min(...doc.reads.map((r) => r.atUs)));
    for (const k of [0, 1, 2]) {
      const write = doc.writes.find((w) => w.connection === k)!;
      const firstRead = doc.reads.find((r) => r.connection === k)!;
      expect(firstRead.atUs - write.atUs).toBeGreaterThanOrEqual(FLOOR_US);
    }
    // One round trip, not three one after another.
    expect(doc.totals.doneUs).toBeGreaterThanOrEqual(FLOOR_US);
    expect(doc.totals.doneUs).toBeLessThan(3 * FLOOR_US);
    console.log(`cluster, added ${ADDED_MS} ms, one pipeline of 60 × SET over 3 masters: ${(doc.totals.doneUs / 1000).toFixed(1)} ms`);
    expect(await runClientsLeft()).toEqual([]);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('with jitter: the run says both, and every reply is Redis\'s own', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'INCR', n: 300, valueBytes: 0, engine: 'raw', rttMs: 2, jitterMs: 1 });
    expect(doc.rtt).toMatchObject({ addedMs: 2, jitterMs: 1, mechanism: 'proxy' });
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });

  it('a cancel mid-run drops what the proxies hold and leaves no key on any node', async () => {
    const controller = new AbortController();
    const run = executeRun(session, 'sequential', { command: 'SET', n: 5000, valueBytes: 8, engine: 'raw', rttMs: 2 }, {
      onStart: () => setTimeout(() => controller.abort(), 100),
    }, controller.signal);
    await expect(run).rejects.toThrow(RunCancelledError);
    await backgroundSettled();
    expect(await runClientsLeft()).toEqual([]);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });
});

describe('the node address map, for the cluster clients', () => {
  /** Each master's clients by address, to tell a proxied connection (from a proxy's upstream end) from a direct one. */
  async function clientAddresses(): Promise<string[]> {
    const lists = await Promise.all(context.masters.map((master) => master.client('LIST') as Promise<string>));
    return lists.flatMap((list) => list.split('\n').filter((line) => line.includes(' name=through-proxy')).map((line) => /addr=(\S+)/.exec(line)![1]!));
  }

  it('ioredis natMap and node-redis nodeAddressMap: every node reached through its proxy, keys on every master', async () => {
    const proxies = await NodeDelayProxies.forTopology(session.cluster!, { addedRttMs: 2, jitterMs: 0 });
    const map = proxies.nodeAddressMap();
    expect(Object.keys(map).sort()).toEqual(masterAddresses().sort());
    for (const proxied of Object.values(map)) expect(proxied.host).toBe('127.0.0.1');
    const seed = map[masterAddresses()[0]!]!;
    const keys = Array.from({ length: 30 }, (_, i) => `pipescope:test:natmap:${i}`);
    try {
      const viaIoredis = new Cluster([seed], { natMap: map, redisOptions: { connectionName: 'through-proxy-ioredis' } });
      const started = process.hrtime.bigint();
      await viaIoredis.get(keys[0]!);
      for (const key of keys) await viaIoredis.set(key, 'v');
      const perCommandMs = Number(process.hrtime.bigint() - started) / 1e6 / (keys.length + 1);
      expect(perCommandMs).toBeGreaterThanOrEqual(2 * 0.95);
      const viaNodeRedis = createCluster({
        rootNodes: [{ socket: { host: seed.host, port: seed.port } }],
        nodeAddressMap: map,
        defaults: { name: 'through-proxy-node-redis' },
      });
      await viaNodeRedis.connect();
      expect(await Promise.all(keys.map((key) => viaNodeRedis.get(key)))).toEqual(keys.map(() => 'v'));
      // Every connection of both clients came from a proxy's upstream end (the proxies run in this process,
      // on loopback), none straight from the clients: Redis sees as many clients as the proxies opened.
      const addresses = await clientAddresses();
      expect(addresses.length).toBeGreaterThanOrEqual(2 * 3);
      const upstreams = new Set(masterAddresses().flatMap((address) => proxies.proxyFor(address).upstreamAddresses));
      for (const address of addresses) expect(upstreams.has(address)).toBe(true);
      await viaNodeRedis.del(keys.slice(0, 1)); // one key, one slot
      await Promise.all(keys.map((key) => viaIoredis.unlink(key)));
      viaIoredis.disconnect();
      await viaNodeRedis.close();
    } finally {
      await proxies.close();
    }
    expect(proxies.openSockets).toBe(0);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});
