// The client limits and fairness over real sockets against a real redis-server: each limit refuses
// with a message naming it, its value and its flag; connections are served in turn, not first come
// first served; and a request id is its connection's own (another connection reusing it cancels nothing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';
import type { ClientLimits } from '../access/client-limits.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';

let redis: PrivateRedis;
const apps: RunningApp[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await redis?.stop();
});

async function appWith(limits: Partial<ClientLimits>): Promise<RunningApp> {
  const app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}`, limits }, () => {});
  apps.push(app);
  return app;
}

/** A run that keeps the queue busy for a few seconds (and can be cancelled at once). */
const LONG = { command: 'PING', n: 1_000_000, modes: ['sequential'], repeats: 1, memory: false, kernelTcp: false };
const SHORT = { command: 'PING', n: 5, modes: ['pipeline'], repeats: 1 };
const errorOf = (client: LiveTestClient, requestId: string) =>
  client.next((m): m is Extract<ServerMessage, { type: 'error' }> => m.type === 'error' && m.requestId === requestId);

describe('limits', () => {
  it('requests waiting or running per connection', async () => {
    const app = await appWith({ maxQueuedPerConnection: 2 });
    const client = await new LiveTestClient(app.url).open();
    client.send({ type: 'run', requestId: 'long', spec: LONG });
    client.send({ type: 'run', requestId: 'second', spec: SHORT });
    client.send({ type: 'run', requestId: 'third', spec: SHORT });
    expect((await errorOf(client, 'third')).message).toBe(
      'Too many requests at once: a connection may have 2 waiting or running (--max-queued-per-client). Wait for one to finish, or cancel one.');
    client.send({ type: 'cancel', requestId: 'long' });
    expect((await client.end('second')).type).toBe('request-done');
    client.close();
  });

  it('requests per minute per connection', async () => {
    const app = await appWith({ maxRunsPerMinute: 3 });
    const client = await new LiveTestClient(app.url).open();
    for (const id of ['r1', 'r2', 'r3']) {
      client.send({ type: 'run', requestId: id, spec: SHORT });
      expect((await client.end(id)).type).toBe('request-done');
    }
    client.send({ type: 'run', requestId: 'r4', spec: SHORT });
    expect((await errorOf(client, 'r4')).message).toMatch(/^Too many requests: a connection may start 3 per minute \(--max-runs-per-minute\)\. Try again in \d+ s\.$/);
    const other = await new LiveTestClient(app.url).open(); // another connection has its own minute
    other.send({ type: 'run', requestId: 'r1', spec: SHORT });
    expect((await other.end('r1')).type).toBe('request-done');
    client.close();
    other.close();
  });

  it('commands waiting in all; a request on an idle queue is taken whatever its size', async () => {
    const app = await appWith({ maxQueuedCommands: 100_000 });
    const first = await new LiveTestClient(app.url).open();
    const second = await new LiveTestClient(app.url).open();
    first.send({ type: 'run', requestId: 'big', spec: LONG }); // 1,000,000 > the limit, but the queue is empty
    await first.next((m) => m.type === 'run-start');
    second.send({ type: 'run', requestId: 'more', spec: { ...SHORT, n: 10 } });
    expect((await errorOf(second, 'more')).message).toBe(
      'The queue is full: 1,000,000 commands are waiting or running and this request adds 10; together they may be 100,000 (--max-queued-commands). ' +
      'Try again when the queue is shorter, or ask for fewer commands.');
    first.send({ type: 'cancel', requestId: 'big' });
    await first.end('big');
    second.send({ type: 'run', requestId: 'later', spec: SHORT });
    expect((await second.end('later')).type).toBe('request-done');
    first.close();
    second.close();
  });

  it('connections at once: the one over the limit is closed with 1013 and the reason', async () => {
    const app = await appWith({ maxConnections: 2 });
    const open = [await new LiveTestClient(app.url).open(), await new LiveTestClient(app.url).open()];
    const third = new LiveTestClient(app.url);
    expect(await third.whenClosed()).toEqual({ code: 1013, reason: 'Too many connections: at most 2 (--max-connections). Close other tabs or try later.' });
    open[0]!.close();
    await open[0]!.whenClosed();
    await new Promise((resolve) => setTimeout(resolve, 50)); // the server sees the close
    const fourth = await new LiveTestClient(app.url).open(); // a place came free
    fourth.close();
    open[1]!.close();
  });
});

describe('fairness', () => {
  it('serves connections in turn: a later client runs before the flooder\'s second request', async () => {
    const app = await appWith({ maxQueuedPerConnection: 4 });
    const flooder = await new LiveTestClient(app.url).open();
    const other = await new LiveTestClient(app.url).open();
    flooder.send({ type: 'run', requestId: 'f1', spec: { ...LONG, n: 3000 } });
    await flooder.next((m) => m.type === 'run-start');
    for (const id of ['f2', 'f3', 'f4']) flooder.send({ type: 'run', requestId: id, spec: SHORT });
    await flooder.next((m) => m.type === 'queued' && m.requestId === 'f4');
    other.send({ type: 'run', requestId: 'o1', spec: SHORT });
    expect(await other.next((m) => m.type === 'queued')).toMatchObject({ requestId: 'o1', position: 1 });
    await other.end('o1');
    await flooder.end('f4');
    const startedAt = (client: LiveTestClient, id: string) =>
      (client.messages.find((m) => m.type === 'run-start' && m.requestId === id) as Extract<ServerMessage, { type: 'run-start' }>).run.startedAt;
    expect(startedAt(other, 'o1') < startedAt(flooder, 'f2')).toBe(true);
    // The flooder's waiting requests were told they moved back when o1 took its turn.
    expect(flooder.messages.filter((m) => m.type === 'queued' && m.requestId === 'f2').map((m) => (m as { position: number }).position)).toEqual([1, 2, 1, 0]);
    flooder.close();
    other.close();
  });
});

describe('request ids belong to their connection', () => {
  it('a client reusing another\'s request id cannot cancel the other\'s run', async () => {
    const app = await appWith({});
    const alice = await new LiveTestClient(app.url).open();
    const mallory = await new LiveTestClient(app.url).open();
    alice.send({ type: 'run', requestId: 'x', spec: { ...LONG, n: 20_000 } });
    await alice.next((m) => m.type === 'run-start');
    mallory.send({ type: 'cancel', requestId: 'x' });
    expect((await errorOf(mallory, 'x')).message).toBe('No run x to cancel.');
    mallory.send({ type: 'run', requestId: 'x', spec: SHORT }); // now mallory has an "x" of its own, waiting
    await mallory.next((m) => m.type === 'queued' && m.requestId === 'x');
    mallory.send({ type: 'cancel', requestId: 'x' });
    await mallory.next((m) => m.type === 'cancelled' && m.requestId === 'x');
    mallory.socket.terminate(); // closing its tab cancels only its own requests
    expect((await alice.end('x')).type).toBe('request-done');
    alice.close();
  });
});
