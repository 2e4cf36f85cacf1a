// The private Redis Cluster with replicas (`--cluster --cluster-replicas 1`), against the built backend:
// raw engine runs split by node go to the masters and leave no key on any node, replicas included; then
// resharding runs (`reshard`) one after another while a load client of the test's own reads and writes
// its keys all over the cluster: every run's answers are the values stored, the ASKs and MOVEDs are
// counted, the slot layout is the one the cluster was formed with afterwards, the load client lost no
// write and no read failed, and no pipescope:* key is left on any node.
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { buildServer, LiveClient, startBackend, until, type Backend } from '../server/test-support/backend-process.ts';
import { figure, requestEnd, runKeys, spread, tracesFor } from './hard-support.ts';

let backend: Backend;
let nodes: Redis[];
let masters: Redis[];
let replicas: Redis[];
let client: LiveClient;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  backend = await startBackend(['--cluster', '--cluster-replicas', '1']);
  const line = /private Redis Cluster [\d.]+ \(3 masters, 3 replicas\) on ([\d.]+) ports ([\d, ]+), ready in ([\d.]+) s/.exec(backend.output());
  expect(line).not.toBeNull();
  figure('private cluster with replicas ready in', `${line![3]} s`);
  nodes = line![2]!.split(', ').map((port) => new Redis({ host: line![1]!, port: Number(port), maxRetriesPerRequest: 1 }));
  const roles = await Promise.all(nodes.map(async (node) => /role:(\w+)/.exec(await node.info('replication'))![1]));
  masters = nodes.filter((_, i) => roles[i] === 'master');
  replicas = nodes.filter((_, i) => roles[i] === 'slave');
  expect([masters.length, replicas.length]).toEqual([3, 3]);
  client = await LiveClient.open(backend.wsUrl);
});

afterAll(async () => {
  client?.socket.close();
  for (const node of nodes ?? []) node.disconnect();
  await backend?.stop();
});

/** Every node, replicas included, holds no pipescope:* key (replicas once replication caught up). */
async function nothingLeft(): Promise<void> {
  await until('no pipescope:* key on any node, replicas included', async () => {
    const keys = (await Promise.all(nodes.map(runKeys))).flat();
    return keys.length === 0 ? true : undefined;
  }, 15_000);
}

async function request(requestId: string, spec: Record<string, unknown>): Promise<TraceDocument[]> {
  const from = client.messages.length;
  // No kernel TCP figures and no memory repeat: probes a cluster run does not take yet.
  client.send({ type: 'run', requestId, spec: { kernelTcp: false, memory: false, ...spec } });
  const end = await requestEnd(client, requestId);
  expect(end.message, JSON.stringify(end.message).slice(0, 400)).toMatchObject({ type: 'request-done' });
  return tracesFor(client.messages.slice(from).map((m) => m.message), requestId);
}

describe('the private cluster with replicas', () => {
  it('raw runs split by node reach the masters only; nothing is left on any node, replicas included', async () => {
    const docs = await request('replicas', { command: 'SET', n: 5000, valueBytes: 16, engine: 'raw', modes: ['sequential', 'pipeline'], repeats: 2 });
    expect(new Set(docs.map((doc) => doc.run.mode))).toEqual(new Set(['sequential', 'pipeline']));
    for (const doc of docs) {
      const topology = doc.cluster!.topology;
      expect(topology.nodes.filter((node) => node.role === 'replica')).toHaveLength(3);
      const masterIds = new Set(topology.nodes.filter((node) => node.role === 'master').map((node) => node.id));
      expect(doc.commands.every((command) => masterIds.has(command.node!))).toBe(true);
      expect(doc.cluster!.redirects).toEqual([]);
      expect(doc.commands.every((command) => 'reply' in command && command.reply === 'OK')).toBe(true);
    }
    await nothingLeft();
  });
});

describe('resharding under load', () => {
  it('every answer right while slots move, the layout restored, the load client\'s data intact, nothing left', async () => {
    const layout = async () => JSON.stringify(await Promise.all(masters.map((master) => master.call('CLUSTER', 'SLOTS'))));
    const before = await layout();
    // The load: the test's own keys (outside Pipescope's namespace), written and read back without pause.
    const load = new Cluster([{ host: masters[0]!.options.host!, port: masters[0]!.options.port! }], { maxRedirections: 16, retryDelayOnMoved: 1 });
    const written = new Map<string, string>();
    const loadErrors: string[] = [];
    let loadOps = 0;
    let stop = false;
    const loadStarted = performance.now();
    const loading = (async () => {
      for (let i = 0; !stop && i < 10_000_000; i++) {
        const key = `load:${i % 2000}`;
        const value = String(i);
        try {
          await load.set(key, value);
          written.set(key, value);
          const read = await load.get(key);
          if (read !== value) loadErrors.push(`${key}: read ${read}, wrote ${value}`);
          loadOps += 2;
        } catch (error) {
          loadErrors.push((error as Error).message);
        }
      }
    })();
    const runs: { label: string; doc: TraceDocument }[] = [];
    try {
      const specs: [string, Record<string, unknown>][] = [
        ['sequential 3000 GET', { command: 'GET', n: 3000, valueBytes: 16, modes: ['sequential'] }],
        ['pipeline of 20000 GET', { command: 'GET', n: 20_000, valueBytes: 16, modes: ['pipeline'] }],
        ['sequential 3000 SET', { command: 'SET', n: 3000, valueBytes: 16, modes: ['sequential'] }],
      ];
      for (let round = 0; round < 3; round++) {
        for (const [label, spec] of specs) {
          const docs = await request(`reshard-${round}-${label}`, { ...spec, engine: 'raw', reshard: true, repeats: 1 });
          for (const doc of docs) runs.push({ label, doc });
        }
      }
    } finally {
      stop = true;
      await loading;
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    for (const { label, doc } of runs) {
      const reshard = doc.cluster!.reshard!;
      expect(reshard.error, label).toBeUndefined();
      expect(reshard.checked, label).toBe(doc.run.operations);
      expect(reshard.wrong, label).toBe(0);
      expect(doc.commands.some((command) => command.valueStored !== undefined), label).toBe(false);
    }
    const kinds = (doc: TraceDocument, kind: string) => doc.cluster!.redirects.filter((r) => r.kind === kind).length;
    for (const label of new Set(runs.map((r) => r.label))) {
      const of = runs.filter((r) => r.label === label).map((r) => r.doc);
      figure(`resharding under load, ${label}`, of.map((doc) => `${kinds(doc, 'ASK')} ASK + ${kinds(doc, 'MOVED')} MOVED, ${doc.cluster!.reshard!.keys} key(s) moved, run ${(doc.totals.durationUs / 1000).toFixed(0)} ms`).join('; '));
    }
    const moveMs = runs.map(({ doc }) => (doc.cluster!.reshard!.keysMovedUs! - doc.cluster!.reshard!.startedUs) / 1000);
    const switchMs = runs.map(({ doc }) => (doc.cluster!.reshard!.doneUs! - doc.cluster!.reshard!.keysMovedUs!) / 1000);
    figure('time to move a slot\'s keys (IMPORTING … last MIGRATE)', spread(moveMs));
    figure('slot held migrating, then SETSLOT NODE on every master', spread(switchMs));
    figure('load client alongside', `${Math.round(loadOps / loadSeconds)} ops/s, ${loadErrors.length} errors`);
    expect(runs.some(({ doc }) => kinds(doc, 'ASK') > 0)).toBe(true);
    expect(runs.some(({ doc }) => kinds(doc, 'MOVED') > 0)).toBe(true);
    expect(loadErrors).toEqual([]);
    // Every load key holds what was last written to it: no write lost to a move (nor to its move back).
    const check = await Promise.all([...written].map(async ([key, value]) => (await load.get(key)) === value));
    expect(check.every(Boolean)).toBe(true);
    await Promise.all([...written.keys()].map((key) => load.del(key)));
    load.disconnect();
    await until('the layout back to the one the cluster was formed with', async () => ((await layout()) === before ? true : undefined), 10_000);
    await nothingLeft();
  });
});
