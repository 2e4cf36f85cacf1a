// `npm start -- --cluster`, as users run it: the backend starts a private Redis Cluster (3 masters, each
// a redis-server under its own watchdog, in its own temporary folder), says so, and answers a run with
// the reason when a run cannot go to a cluster yet (a chunked run). SIGKILL of the backend leaves no node and no folder; a node
// killed is replaced by a fresh cluster, and the page hears it. The backend gets its own TMPDIR, so the
// test sees only its folders.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer, descendantsOf, isAlive, LiveClient, startBackend, until } from '../test-support/backend-process.ts';

let tmp: string;

beforeAll(() => {
  expect(buildServer()).toBe('');
  tmp = mkdtempSync(join(tmpdir(), 'pipescope-cluster-leftovers-test-'));
}, 180_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const ours = () => readdirSync(tmp).filter((name) => name.startsWith('pipescope-')).sort();
const redisServers = (pid: number) => descendantsOf(pid).filter((p) => /(^|\/)redis-server /.test(p.command));

it('SIGKILL of the backend leaves no node of its private cluster and no folder', async () => {
  const backend = await startBackend(['--cluster'], { TMPDIR: tmp });
  try {
    expect(backend.output()).toMatch(/Measuring private Redis Cluster [\d.]+ \(3 masters\) on 127\.0\.0\.1 ports \d+, \d+, \d+, ready in [\d.]+ s/);
    console.log(backend.output().split('\n').find((line) => line.includes('Measuring')));
    expect(ours().map((name) => name.replace(/-[^-]+$/, ''))).toEqual(Array(3).fill('pipescope-cluster-node'));
    const client = await LiveClient.open(backend.wsUrl);
    client.send({ type: 'run', requestId: 'on-cluster', spec: { command: 'SET', n: 10, modes: ['chunked'], chunk: 5 } });
    const answer = await client.next((m) => m.type === 'error' || m.type === 'run-start');
    expect(answer).toMatchObject({ type: 'error', message: expect.stringMatching(/node of a Redis Cluster \(3 masters\).*Nothing was sent/) });
    const helpers = descendantsOf(backend.process.pid!);
    expect(redisServers(backend.process.pid!)).toHaveLength(3);

    backend.process.kill('SIGKILL');
    await backend.exited;
    const pids = helpers.map((p) => p.pid);
    await until('every node and watchdog to end', () => (pids.every((pid) => !isAlive(pid)) ? true : undefined), 30_000);
    await until('the temporary folders to go', () => (ours().length === 0 ? true : undefined), 10_000);
  } finally {
    await backend.stop();
  }
}, 120_000);

it('a node killed: a fresh cluster replaces it, and the page hears so', async () => {
  const backend = await startBackend(['--cluster', '--cluster-replicas', '1'], { TMPDIR: tmp });
  try {
    expect(backend.output()).toMatch(/\(3 masters, 3 replicas\)/);
    const client = await LiveClient.open(backend.wsUrl);
    const before = redisServers(backend.process.pid!);
    expect(before).toHaveLength(6);
    process.kill(before[1]!.pid, 'SIGKILL');
    // Each wait bounded well within the test's 120 s, so that a failure still stops the backend (finally) instead
    // of leaving it, and its cluster, to outlive the test worker.
    const said = () => JSON.stringify(client.messages.map((m) => m.message).filter((m) => m.type === 'redis-status'));
    await client.next((m) => m.type === 'redis-status' && !m.redis.up && /A node of the private Redis Cluster .*\(killed by SIGKILL\); restarting the cluster/.test(m.redis.message ?? ''), 0, 20_000)
      .catch((error: Error) => Promise.reject(new Error(`${error.message}: ${said()}`)));
    await client.next((m) => m.type === 'redis-status' && m.redis.up && /fresh, empty cluster/.test(m.redis.message ?? ''), 0, 45_000)
      .catch((error: Error) => Promise.reject(new Error(`${error.message}: ${said()}`)));
    const after = redisServers(backend.process.pid!);
    expect(after).toHaveLength(6);
    expect(after.map((p) => p.pid).some((pid) => before.some((b) => b.pid === pid))).toBe(false);
    await backend.stop();
    await until('the temporary folders to go', () => (ours().length === 0 ? true : undefined), 10_000);
  } finally {
    await backend.stop();
  }
}, 120_000);
