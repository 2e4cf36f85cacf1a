// A Redis that stops answering (SIGSTOP: its connections stay open, nothing comes back), against the
// built backend given its URL: a run asked meanwhile fails with a clear error within the control
// timeout; a run under way when it stops fails within its stall bound; a Cancel is answered within
// 0.1 s whatever Redis does; the page hears "not answering" while it lasts; a password Redis's queue of
// three runs is through in seconds. Each time Redis answers again, the next run works and no key is left.
// Figures: how long each took. Before: a new run sat at "queued 0" for 60 s without a word, a Cancel
// took 10 s, three runs against a password Redis waited ~6 minutes, the page never said Redis was down.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_COMMAND_TIMEOUT_MS } from '../server/redis/redis-session.ts';
import { STALL_MS } from '../server/runs/run-guard.ts';
import { buildServer, LiveClient, startBackend, type Backend } from '../server/test-support/backend-process.ts';
import { startUserRedis, type UserRedis } from '../server/test-support/user-redis.ts';
import { keysLeftAfter } from '../server/test-support/run-keys.ts';
import { figure, requestEnd } from './hard-support.ts';
import type { ServerMessage } from '../trace/protocol/live-protocol.ts';

const CANCEL_BOUND_MS = 100;
const LONG = { command: 'PING', n: 1_000_000, modes: ['sequential'], repeats: 1, memory: false, confirmLongRun: true };

let redis: UserRedis;
let backend: Backend;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  redis = await startUserRedis();
  backend = await startBackend([], { REDIS_URL: redis.url });
}, 180_000);

afterAll(async () => {
  redis?.resume();
  await backend?.stop();
  await redis?.stop();
});

const down = (m: ServerMessage) => (m.type === 'redis-status' || m.type === 'hello') && !m.redis.up && /not answering/.test(m.redis.message ?? '');
const up = (m: ServerMessage) => m.type === 'redis-status' && m.redis.up;

/** Redis answers again; the page hears it (when it had heard otherwise), the next run works and leaves no key. */
async function recovers(client: LiveClient, from: number): Promise<void> {
  redis.resume();
  const heardDown = client.messages.slice(0, from).some((entry) => down(entry.message));
  if (heardDown) await client.next(up, from, 30_000);
  client.send({ type: 'run', requestId: `after-${from}`, spec: { command: 'SET', n: 1000, valueBytes: 16, modes: ['pipeline'], repeats: 1 } });
  expect((await requestEnd(client, `after-${from}`)).message.type).toBe('request-done');
  expect(await keysLeftAfter(redis.observer, 35_000)).toEqual([]);
}

describe('Redis stopped with SIGSTOP', () => {
  it('a run asked meanwhile fails in words within the control timeout, and the page hears it', async () => {
    const client = await LiveClient.open(backend.wsUrl);
    const from = client.messages.length;
    redis.pause();
    const pausedAt = performance.now();
    client.send({ type: 'run', requestId: 'new', spec: { command: 'PING', n: 100, modes: ['pipeline'], repeats: 1 } });
    const end = await requestEnd(client, 'new', 60_000);
    const failedMs = end.at - pausedAt;
    expect(end.message).toMatchObject({ type: 'error', message: expect.stringMatching(/is not answering: no reply to PING within 5 s\. The run did not start\./) });
    expect(failedMs).toBeLessThan(CONTROL_COMMAND_TIMEOUT_MS + 2_000);
    const banner = await client.nextAt(down, from, 30_000);
    figure('a run asked while Redis is stopped', `failed in words after ${(failedMs / 1000).toFixed(1)} s; the page heard "not answering" after ${((banner.at - pausedAt) / 1000).toFixed(1)} s (before: "queued 0" for 60 s, no word)`);
    await recovers(client, client.messages.length);
    client.close();
  }, 120_000);

  it('a run under way when Redis stops fails within its stall bound', async () => {
    const client = await LiveClient.open(backend.wsUrl);
    client.send({ type: 'run', requestId: 'stalled', spec: LONG });
    await client.next((m) => m.type === 'run-events' && m.requestId === 'stalled');
    const from = client.messages.length;
    redis.pause();
    const pausedAt = performance.now();
    const end = await requestEnd(client, 'stalled', 60_000);
    expect(end.message).toMatchObject({ type: 'error', message: expect.stringMatching(/is not answering: 1 of the run's commands got no reply for \d+(\.\d+)? s/) });
    const failedS = (end.at - pausedAt) / 1000;
    expect(failedS).toBeLessThan(STALL_MS / 1000 + 3);
    await client.nextAt(down, from, 10_000);
    figure('a run under way when Redis stops', `failed in words after ${failedS.toFixed(1)} s (stall bound ${STALL_MS / 1000} s)`);
    await recovers(client, client.messages.length);
    client.close();
  }, 120_000);

  it(`a Cancel is answered within ${CANCEL_BOUND_MS} ms while Redis does not answer`, async () => {
    const client = await LiveClient.open(backend.wsUrl);
    const latencies: number[] = [];
    for (let trial = 0; trial < 3; trial++) {
      const id = `cancel-${trial}`;
      client.send({ type: 'run', requestId: id, spec: LONG });
      await client.next((m) => m.type === 'run-events' && m.requestId === id, 0, 60_000);
      redis.pause();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sentAt = client.send({ type: 'cancel', requestId: id });
      const end = await requestEnd(client, id, 10_000);
      expect(end.message.type).toBe('cancelled');
      latencies.push(end.at - sentAt);
      await recovers(client, 0);
    }
    figure('Cancel while Redis is stopped', `${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms (before: 10 s)`);
    for (const ms of latencies) expect(ms).toBeLessThan(CANCEL_BOUND_MS);
    client.close();
  }, 300_000);
});

describe('a password Redis stopped with SIGSTOP', () => {
  it('three runs waiting fail in words, one after another, in seconds', async () => {
    const locked = await startUserRedis([], 'hard-test-password');
    const guarded = await startBackend([], { REDIS_URL: locked.url });
    try {
      const clients = await Promise.all(['127.0.0.1', '127.0.0.2', '127.0.0.3'].map((localAddress) => LiveClient.open(guarded.wsUrl, { localAddress })));
      locked.pause();
      const pausedAt = performance.now();
      clients.forEach((client, i) => client.send({ type: 'run', requestId: `r${i}`, spec: { command: 'SET', n: 100, valueBytes: 16, modes: ['sequential', 'pipeline'], repeats: 1 } }));
      const ends = await Promise.all(clients.map((client, i) => requestEnd(client, `r${i}`, 120_000)));
      for (const end of ends) expect(end.message).toMatchObject({ type: 'error', message: expect.stringMatching(/is not answering/) });
      const lastS = (Math.max(...ends.map((end) => end.at)) - pausedAt) / 1000;
      figure('three runs against a stopped password Redis', `all failed in words within ${lastS.toFixed(1)} s (before: ~6 minutes)`);
      expect(lastS).toBeLessThan(3 * (CONTROL_COMMAND_TIMEOUT_MS / 1000) + 10);
      locked.resume();
      clients[0]!.send({ type: 'run', requestId: 'after', spec: { command: 'PING', n: 10, modes: ['pipeline'], repeats: 1 } });
      expect((await requestEnd(clients[0]!, 'after', 60_000)).message.type).toBe('request-done');
      for (const client of clients) client.close();
    } finally {
      locked.resume();
      await guarded.stop();
      await locked.stop();
    }
  }, 300_000);
});
