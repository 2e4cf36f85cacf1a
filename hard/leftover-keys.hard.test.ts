// Keys that cannot outlive their run, with the built backend killed by SIGKILL mid-run (nothing in it
// can clean up then):
//  - on a user's Redis (a redis-server of the test's own, given by URL), then a backend started again:
//    every key of the killed run is gone within the bound, while another backend's run on the same
//    Redis, under way meanwhile, keeps its keys (its GETs all find their value);
//  - on the same Redis, with another backend still running and none restarted: its janitor deletes
//    them once the killed one's lease is known dead (its owner was on this host) — a chunked run here;
//  - on the private redis-server: it dies with the backend, its keys with it.
// Figures: keys left at the kill, seconds until none is left. Before leases, 898,419 keys of a
// 1,000,000-SET pipeline stayed for good (185,000 of a chunked run): no TTL, and no backend removed them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConnection } from 'node:net';
import { JANITOR_INTERVAL_MS } from '../server/runs/key-janitor.ts';
import { buildServer, LiveClient, startBackend, until, type Backend } from '../server/test-support/backend-process.ts';
import { startUserRedis, type UserRedis } from '../server/test-support/user-redis.ts';
import { figure, requestEnd, runKeys } from './hard-support.ts';

/** A backend started again clears a dead backend's keys at start-up (its lease names a dead pid on this host). */
const RESTART_BOUND_MS = 30_000;
/** A backend already running clears them at its next registry check, once the lease is known dead. */
const RUNNING_BOUND_MS = JANITOR_INTERVAL_MS + 30_000;

let redis: UserRedis;
const backends: Backend[] = [];

beforeAll(async () => {
  expect(buildServer()).toBe('');
  redis = await startUserRedis();
}, 180_000);

afterAll(async () => {
  for (const backend of backends) await backend.stop();
  await redis?.stop();
});

async function backendOn(url: string): Promise<Backend> {
  const backend = await startBackend([], { REDIS_URL: url });
  backends.push(backend);
  return backend;
}

/** Run keys of one run id (the lease and registry aside), counted with SCAN. */
async function keysOf(runId: string): Promise<number> {
  return (await runKeys(redis.observer)).filter((key) => key.startsWith(`pipescope:${runId}:`)).length;
}

/** Starts `spec` on `backend` and waits until Redis holds at least `atLeast` of its keys; its run id. */
async function runUntilKeys(backend: Backend, spec: object, atLeast: number): Promise<{ client: LiveClient; runId: string }> {
  const client = await LiveClient.open(backend.wsUrl);
  client.send({ type: 'run', requestId: 'doomed', spec });
  const start = await client.next((m) => m.type === 'run-start');
  const runId = start.type === 'run-start' ? start.run.id : '';
  await until(`${atLeast} keys of run ${runId}`, async () => (Number(await redis.observer.dbsize()) >= atLeast ? true : undefined), 60_000);
  return { client, runId };
}

/** Kills `backend` with SIGKILL; resolves once it has exited. */
async function kill(backend: Backend): Promise<number> {
  backend.process.kill('SIGKILL');
  await backend.exited;
  return performance.now();
}

describe('kill -9 of the backend mid-run', () => {
  let restarted: Backend;

  it('on a user Redis, then a backend started again: every key of the killed run is gone within the bound', async () => {
    const doomed = await backendOn(redis.url);
    const { runId } = await runUntilKeys(doomed, { command: 'SET', n: 1_000_000, valueBytes: 16, modes: ['pipeline'], repeats: 1, memory: false }, 200_000);
    await kill(doomed);
    const left = await keysOf(runId);
    const leaseMs = Number(await redis.observer.pttl(`pipescope:lease:${runId}`));
    figure('keys left by a 1,000,000-SET pipeline killed with SIGKILL', `${left.toLocaleString('en-US')} (its lease had ${(leaseMs / 1000).toFixed(0)} s left)`);
    expect(left).toBeGreaterThan(100_000);
    const restartedAt = performance.now();
    restarted = await backendOn(redis.url);
    const upAt = performance.now();
    await until('no key of the killed run', async () => ((await keysOf(runId)) === 0 ? true : undefined), RESTART_BOUND_MS);
    const goneAt = performance.now();
    await until('the janitor to say what it deleted', () => (/deleted [\d,]+ keys left by 1 run\(s\) whose process ended/.test(restarted.output()) ? true : undefined), 10_000);
    figure('seconds until a killed run\'s keys are gone after a backend starts again',
      `${((goneAt - restartedAt) / 1000).toFixed(1)} s from its start (${((upAt - restartedAt) / 1000).toFixed(1)} s to start, ${((goneAt - upAt) / 1000).toFixed(1)} s to delete; bound ${RESTART_BOUND_MS / 1000} s; before leases: never)`);
    expect(await runKeys(redis.observer)).toEqual([]); // its lease and registry entry too
  }, 300_000);

  it('another backend\'s run under way while they are cleared keeps its keys: its GETs all find their value', async () => {
    const reader = await LiveClient.open(restarted.wsUrl);
    reader.send({ type: 'run', requestId: 'reads', spec: { command: 'GET', n: 100_000, valueBytes: 64, modes: ['sequential'], repeats: 1, memory: false, confirmLongRun: true } });
    await reader.next((m) => m.type === 'run-events' && m.requestId === 'reads');
    // While it reads: a run killed, and a backend starting (its start-up walk clears what the killed one left).
    const doomed = await backendOn(redis.url);
    const { runId } = await runUntilKeys(doomed, { command: 'SET', n: 400_000, valueBytes: 16, modes: ['chunked'], chunk: 1000, repeats: 1, memory: false }, 100_000);
    const killedAt = await kill(doomed);
    figure('keys left by a chunked 400,000-SET run killed with SIGKILL', (await keysOf(runId)).toLocaleString('en-US'));
    await backendOn(redis.url);
    await until('no key of the killed run', async () => ((await keysOf(runId)) === 0 ? true : undefined), RESTART_BOUND_MS);
    figure('seconds until they are gone, a backend starting beside a live run', `${((performance.now() - killedAt) / 1000).toFixed(1)} s`);

    const end = await requestEnd(reader, 'reads');
    expect(end.message.type).toBe('request-done');
    const replies = reader.messages.map((entry) => entry.message).flatMap((m) => (m.type === 'run-events' && m.requestId === 'reads' ? m.outcomes : []));
    expect(replies).toHaveLength(100_000);
    expect(replies.every((reply) => typeof reply === 'string' && reply.length > 0)).toBe(true); // its value was never deleted
    reader.close();
  }, 300_000);

  it('on a user Redis with another backend running and none started: its janitor clears them within its interval', async () => {
    const doomed = await backendOn(redis.url);
    const { runId } = await runUntilKeys(doomed, { command: 'SET', n: 1_000_000, valueBytes: 16, modes: ['pipeline'], repeats: 1, memory: false }, 200_000);
    const killedAt = await kill(doomed);
    await until('no key of the killed run', async () => ((await keysOf(runId)) === 0 ? true : undefined), RUNNING_BOUND_MS);
    figure('seconds until a killed run\'s keys are gone, other backends running', `${((performance.now() - killedAt) / 1000).toFixed(1)} s (bound ${RUNNING_BOUND_MS / 1000} s)`);
    expect(restarted.process.exitCode).toBeNull();
    expect(await runKeys(redis.observer)).toEqual([]);
  }, 300_000);

  it('on the private redis-server: it dies with the backend, and its keys with it', async () => {
    const doomed = await startBackend();
    backends.push(doomed);
    const address = doomed.redisAddress!;
    const client = await LiveClient.open(doomed.wsUrl);
    client.send({ type: 'run', requestId: 'doomed', spec: { command: 'SET', n: 1_000_000, valueBytes: 16, modes: ['pipeline'], repeats: 1, memory: false } });
    await client.next((m) => m.type === 'run-events');
    doomed.process.kill('SIGKILL');
    await doomed.exited;
    const killedAt = performance.now();
    const refused = () => new Promise<boolean>((resolve) => {
      const socket = createConnection(address);
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    await until('the private redis-server to be gone', async () => ((await refused()) ? true : undefined), 10_000);
    figure('private redis-server gone after the backend\'s SIGKILL', `${(performance.now() - killedAt).toFixed(0)} ms (its keys with it)`);
  }, 120_000);
});
