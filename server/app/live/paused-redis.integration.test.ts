// A Redis that stops answering (its process stopped with SIGSTOP: the connection stays open, nothing
// comes back) against the app over real sockets: the page hears "not answering" while it lasts, even
// with requests waiting; a run asked meanwhile fails within the control command timeout, in words;
// a Cancel of a run under way is answered at once; and once Redis answers again, so does everything.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { CONTROL_COMMAND_TIMEOUT_MS } from '../../redis/redis-session.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';

let redis: PrivateRedis;
let app: RunningApp;
const pause = () => process.kill(redis.pid, 'SIGSTOP');
const resume = () => process.kill(redis.pid, 'SIGCONT');

beforeAll(async () => {
  redis = await startPrivateRedis();
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}` }, () => {});
});

afterAll(async () => {
  resume();
  await app?.close();
  await redis?.stop();
});

const statusOf = (m: ServerMessage) => (m.type === 'redis-status' || m.type === 'hello' ? m.redis : null);

it('says "not answering", fails a new run in words within the timeout, answers a Cancel at once, and recovers', async () => {
  const client = await new LiveTestClient(app.url).open();
  const other = await new LiveTestClient(app.url, { localAddress: '127.0.0.2' }).open();
  try {
    // A run under way when Redis stops: the Cancel is answered at once all the same.
    client.send({ type: 'run', requestId: 'long', spec: { command: 'PING', n: 1_000_000, modes: ['sequential'], repeats: 1, confirmLongRun: true, memory: false } });
    await client.next((m) => m.type === 'run-events' && m.requestId === 'long');
    other.send({ type: 'run', requestId: 'waiting', spec: { command: 'PING', n: 10, modes: ['pipeline'] } });
    await other.next((m) => m.type === 'queued' && m.requestId === 'waiting' && m.position > 0);
    pause();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const cancelAt = performance.now();
    client.send({ type: 'cancel', requestId: 'long' });
    expect(await client.end('long')).toMatchObject({ type: 'cancelled' });
    const cancelMs = performance.now() - cancelAt;
    console.log(`Cancel with Redis stopped: answered in ${cancelMs.toFixed(0)} ms`);
    expect(cancelMs).toBeLessThan(250); // the backend is in this process, beside the test: 0.1 s in the hard suite

    // The waiting request now runs into the silent Redis: it fails in words, within the timeout.
    const failedAt = performance.now();
    const failed = await other.end('waiting');
    expect(failed).toMatchObject({ type: 'error', message: expect.stringMatching(/^Run failed: Redis at 127\.0\.0\.1:\d+ is not answering: no reply to PING within 5 s\. The run did not start\.$/) });
    const failedMs = performance.now() - failedAt;
    console.log(`A run asked while Redis is stopped: failed in words after ${(failedMs / 1000).toFixed(1)} s (the cancelled run's clean-up first)`);
    expect(failedMs).toBeLessThan(CONTROL_COMMAND_TIMEOUT_MS + 30_000); // after the cancelled run's clean-up gave up, at worst

    // Every page hears it, though a request was waiting.
    const down = await client.next((m) => statusOf(m)?.up === false);
    expect(statusOf(down)!.message).toMatch(/is not answering/);
  } finally {
    resume();
  }
  // Redis answers again: the status says so, and a run works.
  await client.next((m) => m.type === 'redis-status' && m.redis.up && client.messages.indexOf(m) > client.messages.findIndex((x) => statusOf(x)?.up === false));
  client.send({ type: 'run', requestId: 'after', spec: { command: 'PING', n: 10, modes: ['pipeline'] } });
  expect((await client.end('after')).type).toBe('request-done');
  client.close();
  other.close();
}, 90_000);
