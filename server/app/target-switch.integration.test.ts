// The page's switch between Pipescope's private Redis and its private Redis Cluster, on the backend as
// users run it (`npm start`, its own process and TMPDIR): hello offers both; the cluster starts when a
// page picks it (starting, then ready in …, told to every page) and runs go where they name, a run queued
// before a switch where it was sent; the page's copy of a cluster run, built from the WebSocket's
// messages, is the run the backend keeps, command for command; SIGKILL of the backend leaves no
// redis-server, node or folder. A bad target and a target on a backend given --redis-url are refused in
// words.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TraceBuilder } from '../../trace/format/trace-builder.ts';
import { decodeCompactTrace } from '../../trace/format/compact-trace.ts';
import { serializeTrace, verifyTrace } from '../../trace/format/trace-io.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { decodeBatch, finishRun, type ServerMessage } from '../../trace/protocol/live-protocol.ts';
import { buildServer, descendantsOf, isAlive, LiveClient, startBackend, until } from '../test-support/backend-process.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';

let tmp: string;

beforeAll(() => {
  expect(buildServer()).toBe('');
  tmp = mkdtempSync(join(tmpdir(), 'pipescope-target-switch-test-'));
}, 180_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const ours = () => readdirSync(tmp).filter((name) => name.startsWith('pipescope-')).map((name) => name.replace(/-[^-]+$/, '')).sort();
const redisServers = (pid: number) => descendantsOf(pid).filter((p) => /(^|\/)redis-server /.test(p.command));

/** A request's runs as the page builds them from the live messages (live-run-tracker.ts does the same). */
function pageCopies(messages: readonly ServerMessage[], requestId: string): TraceDocument[] {
  const builders = new Map<string, TraceBuilder>();
  const docs: TraceDocument[] = [];
  for (const m of messages) {
    if (!('requestId' in m) || m.requestId !== requestId) continue;
    if (m.type === 'run-start') builders.set(m.run.id, new TraceBuilder(m));
    else if (m.type === 'run-events') builders.get(m.runId)!.addBatch(decodeBatch(m));
    else if (m.type === 'run-end') docs.push(finishRun(builders.get(m.runId)!, m));
  }
  return docs;
}

const bodyOf = (messages: readonly { message: ServerMessage }[]) => messages.map((entry) => entry.message);

it('switches between the private Redis and the private cluster, started on demand; nothing left after SIGKILL', async () => {
  const backend = await startBackend([], { TMPDIR: tmp });
  try {
    const client = await LiveClient.open(backend.wsUrl);
    const hello = await client.next((m) => m.type === 'hello');
    expect(hello).toMatchObject({ type: 'hello', targets: { offered: ['single', 'cluster'], default: 'single' }, redis: { up: true, embedded: true } });
    // Only the single private Redis runs until a page picks the cluster.
    expect(redisServers(backend.process.pid!)).toHaveLength(1);
    expect(ours()).toEqual(['pipescope-redis']);

    client.send({ type: 'run', requestId: 'mars', spec: { command: 'SET', n: 10, modes: ['pipeline'] }, target: 'mars' });
    expect(await client.next((m) => m.type === 'error')).toEqual({
      type: 'error', message: "Invalid message: target: must be 'single' (the private Redis) or 'cluster' (the private Redis Cluster)",
    });

    // A run on the single Redis asked first, then the switch and a run on the cluster: each goes where it was sent.
    const from = client.messages.length;
    client.send({ type: 'run', requestId: 'on-single', spec: { command: 'SET', n: 2000, valueBytes: 16, modes: ['pipeline'], engine: 'raw', repeats: 1 }, target: 'single' });
    client.send({ type: 'target', target: 'cluster' });
    client.send({ type: 'run', requestId: 'on-cluster', spec: { command: 'SET', n: 60, valueBytes: 16, modes: ['pipeline'], engine: 'raw', repeats: 1 }, target: 'cluster' });
    const starting = await client.next((m) => m.type === 'target-state' && m.target === 'cluster', from, 20_000);
    expect(starting).toEqual({ type: 'target-state', target: 'cluster', state: 'starting' });
    const ready = await client.next((m) => m.type === 'target-state' && m.target === 'cluster' && m.state !== 'starting', from, 60_000);
    expect(ready).toMatchObject({ type: 'target-state', target: 'cluster', state: 'ready', message: expect.stringMatching(/^private Redis Cluster [\d.]+ \(3 masters\) on 127\.0\.0\.1 ports \d+, \d+, \d+, ready in [\d.]+ s$/), redis: { up: true } });
    if (ready.type === 'target-state') {
      console.log(`private cluster started on demand, ready in ${ready.readyMs} ms (from the page's pick to a session on it)`);
      expect(ready.readyMs).toBeGreaterThan(0);
    }
    for (const id of ['on-single', 'on-cluster']) {
      const end = await client.next((m) => (m.type === 'request-done' || m.type === 'error' || m.type === 'cancelled') && m.requestId === id, from, 60_000);
      expect(end, JSON.stringify(end)).toMatchObject({ type: 'request-done', requestId: id });
    }
    const messages = bodyOf(client.messages.slice(from));
    const [single] = pageCopies(messages, 'on-single');
    const [cluster] = pageCopies(messages, 'on-cluster');
    expect(single!.cluster).toBeUndefined();
    expect(single!.redis.embedded).toBe(true);
    expect(cluster!.cluster!.topology.nodes.filter((node) => node.role === 'master')).toHaveLength(3);
    expect(cluster!.cluster!.connections).toHaveLength(3);
    expect(new Set(cluster!.commands.map((c) => c.node)).size).toBe(3);
    // Both private targets now, each under its watchdog: 1 + 3 redis-servers and their folders.
    expect(redisServers(backend.process.pid!)).toHaveLength(4);
    expect(ours()).toEqual(['pipescope-cluster-node', 'pipescope-cluster-node', 'pipescope-cluster-node', 'pipescope-redis']);
    // Each target's status is told under its name.
    await client.next((m) => m.type === 'redis-status' && m.target === 'cluster', from, 10_000);

    // The page's copy of the cluster run is the run the backend kept, byte for byte once serialized.
    const stored = messages.find((m) => m.type === 'run-stored' && m.requestId === 'on-cluster') ?? await client.next((m) => m.type === 'run-stored' && m.requestId === 'on-cluster', from, 20_000);
    if (stored.type !== 'run-stored') throw new Error('not a run-stored message');
    const response = await fetch(new URL(`stored-runs/${stored.storedId}`, backend.url));
    expect(response.status).toBe(200);
    const kept = verifyTrace(decodeCompactTrace(await response.json()));
    expect(serializeTrace(cluster!)).toBe(serializeTrace(kept));

    // A second page that picks the cluster hears it ready at once, with its status.
    const second = await LiveClient.open(backend.wsUrl);
    second.send({ type: 'target', target: 'cluster' });
    expect(await second.next((m) => m.type === 'target-state')).toMatchObject({ target: 'cluster', state: 'ready', redis: { up: true } });
    second.close();

    const helpers = descendantsOf(backend.process.pid!);
    backend.process.kill('SIGKILL');
    await backend.exited;
    const pids = helpers.map((p) => p.pid);
    await until('every redis-server and watchdog to end', () => (pids.every((pid) => !isAlive(pid)) ? true : undefined), 30_000);
    await until('the temporary folders to go', () => (ours().length === 0 ? true : undefined), 10_000);
  } finally {
    await backend.stop();
  }
}, 180_000);

it('stopped plainly while the cluster starts: every node stopped, every folder removed', async () => {
  const backend = await startBackend(['--cluster'], { TMPDIR: tmp });
  try {
    const client = await LiveClient.open(backend.wsUrl);
    expect(await client.next((m) => m.type === 'hello')).toMatchObject({ type: 'hello', targets: { offered: ['single', 'cluster'], default: 'cluster' } });
    client.send({ type: 'target', target: 'single' });
    await client.next((m) => m.type === 'target-state' && m.state === 'ready', 0, 30_000);
    expect(redisServers(backend.process.pid!)).toHaveLength(4);
    const helpers = descendantsOf(backend.process.pid!).map((p) => p.pid);
    await backend.stop();
    expect((await backend.exited).code).toBe(143);
    await until('every redis-server to end', () => (helpers.every((pid) => !isAlive(pid)) ? true : undefined), 20_000);
    await until('the temporary folders to go', () => (ours().length === 0 ? true : undefined), 10_000);
  } finally {
    await backend.stop();
  }
}, 120_000);

let users: PrivateRedis | undefined;
afterAll(async () => {
  await users?.stop();
});

it('a backend given --redis-url offers no switch, and refuses a run that names a target', async () => {
  users = await startPrivateRedis();
  const backend = await startBackend(['--redis-url', `redis://${users.host}:${users.port}`], { TMPDIR: tmp });
  try {
    const client = await LiveClient.open(backend.wsUrl);
    expect(await client.next((m) => m.type === 'hello')).not.toHaveProperty('targets');
    client.send({ type: 'target', target: 'cluster' });
    const refused = await client.next((m) => m.type === 'error');
    expect(refused).toMatchObject({ message: expect.stringMatching(/^target cluster: this backend measures the Redis given to it \(127\.0\.0\.1:\d+, --redis-url\), the only target it offers/) });
    client.send({ type: 'run', requestId: 'named', spec: { command: 'SET', n: 10, modes: ['pipeline'] }, target: 'single' });
    expect(await client.next((m) => m.type === 'error' && m.requestId === 'named')).toMatchObject({ message: expect.stringMatching(/^target single: .*the only target it offers/) });
    // Without a target, as before.
    client.send({ type: 'run', requestId: 'plain', spec: { command: 'SET', n: 10, modes: ['pipeline'], repeats: 1 } });
    await client.next((m) => m.type === 'request-done' && m.requestId === 'plain');
    expect(redisServers(backend.process.pid!)).toHaveLength(0);
    expect(ours()).toEqual([]);
  } finally {
    await backend.stop();
  }
}, 60_000);
