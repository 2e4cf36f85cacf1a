// The client limits and fairness over real sockets against a real redis-server: each limit refuses
// with a message naming it, its value and its flag; limits hold per client address as well as per
// connection (a second loopback address, 127.0.0.2, is a second client: the server binds 127.0.0.1 and
// the client's socket binds the other as its source); addresses are served in turn, not first come
// first served; a request expected to take too long is refused, one running too long is stopped; and a
// request id is its connection's own (another connection reusing it cancels nothing).
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
/** A run that keeps the queue busy (over two minutes at some RTTs: confirmed, as the page's question would be). */
const LONG = { command: 'PING', n: 1_000_000, modes: ['sequential'], repeats: 1, memory: false, kernelTcp: false, confirmLongRun: true };
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

/** A client at the second loopback address: another machine, as far as the limits go. */
const ELSEWHERE = { localAddress: '127.0.0.2' };

describe('per client address', () => {
  it('connections from one address beyond its cap are closed with 1013; another address still gets in', async () => {
    const app = await appWith({ maxConnectionsPerAddress: 2 });
    const open = [await new LiveTestClient(app.url).open(), await new LiveTestClient(app.url).open()];
    const third = new LiveTestClient(app.url);
    expect(await third.whenClosed()).toEqual({ code: 1013, reason: 'Too many connections from your address: at most 2 (--max-connections-per-address). Close other tabs.' });
    const elsewhere = await new LiveTestClient(app.url, ELSEWHERE).open(); // another address has places of its own
    elsewhere.send({ type: 'run', requestId: 'e1', spec: SHORT });
    expect((await elsewhere.end('e1')).type).toBe('request-done');
    for (const client of [...open, elsewhere]) client.close();
  });

  it('requests waiting from one address, however many connections it opens', async () => {
    const app = await appWith({ maxQueuedPerAddress: 2 });
    const [a, b, c] = [await new LiveTestClient(app.url).open(), await new LiveTestClient(app.url).open(), await new LiveTestClient(app.url).open()];
    a!.send({ type: 'run', requestId: 'long', spec: LONG });
    await a!.next((m) => m.type === 'run-start');
    b!.send({ type: 'run', requestId: 'b1', spec: SHORT });
    await b!.next((m) => m.type === 'queued' && m.requestId === 'b1');
    c!.send({ type: 'run', requestId: 'c1', spec: SHORT });
    expect((await errorOf(c!, 'c1')).message).toBe(
      'Too many requests from your address at once: one address may have 2 waiting or running (--max-queued-per-address). Wait for one to finish, or cancel one.');
    const elsewhere = await new LiveTestClient(app.url, ELSEWHERE).open();
    elsewhere.send({ type: 'run', requestId: 'e1', spec: SHORT });
    expect(await elsewhere.next((m) => m.type === 'queued' && m.requestId === 'e1')).toMatchObject({ position: 1 });
    a!.send({ type: 'cancel', requestId: 'long' });
    expect((await elsewhere.end('e1')).type).toBe('request-done');
    await b!.end('b1');
    for (const client of [a!, b!, c!, elsewhere]) client.close();
  });

  it('follow sessions shared from one address', async () => {
    const app = await appWith({ maxFollowSessionsPerAddress: 1 });
    const [first, second] = [await new LiveTestClient(app.url).open(), await new LiveTestClient(app.url).open()];
    first!.send({ type: 'follow-start' });
    await first!.next((m) => m.type === 'follow-started');
    second!.send({ type: 'follow-start' });
    expect(await second!.next((m) => m.type === 'follow-error')).toEqual({
      type: 'follow-error', message: 'Too many sessions shared from your address: at most 1 at once (--max-follow-sessions-per-address). Stop one first.' });
    const elsewhere = await new LiveTestClient(app.url, ELSEWHERE).open();
    elsewhere.send({ type: 'follow-start' });
    expect(await elsewhere.next((m) => m.type === 'follow-started' || m.type === 'follow-error')).toMatchObject({ type: 'follow-started' });
    for (const client of [first!, second!, elsewhere]) client.close();
  });

  it('followers have their own budget: a presenter and the whole session join though runners\' places are taken', async () => {
    const app = await appWith({ maxConnections: 2, maxFollowersPerSession: 5 });
    const presenter = await new LiveTestClient(app.url).open();
    const runner = await new LiveTestClient(app.url).open(); // the runners' places are now all taken
    presenter.send({ type: 'follow-start' });
    const { code } = (await presenter.next((m) => m.type === 'follow-started')) as Extract<ServerMessage, { type: 'follow-started' }>;
    const followers: LiveTestClient[] = [];
    for (let i = 0; i < 5; i++) {
      const follower = await new LiveTestClient(`${app.url}?follow=${code}`).open();
      follower.send({ type: 'follow-join', code });
      await follower.next((m) => m.type === 'follow-joined');
      followers.push(follower);
    }
    expect(await presenter.next((m) => m.type === 'follow-count' && m.followers === 5)).toBeTruthy();
    // A follower's connection runs nothing; a sixth follower finds the session full; a runner finds no place.
    followers[0]!.send({ type: 'run', requestId: 'sneak', spec: SHORT });
    expect((await errorOf(followers[0]!, 'sneak')).message).toMatch(/^This tab follows a presenter/);
    const extraRunner = new LiveTestClient(app.url);
    expect((await extraRunner.whenClosed()).code).toBe(1013);
    for (const client of [presenter, runner, ...followers]) client.close();
  });
});

describe('how long a request may take', () => {
  it('refuses a run expected past two minutes unless confirmed, and past the hard bound even confirmed', async () => {
    const app = await appWith({});
    const client = await new LiveTestClient(app.url).open();
    // 1,000 round trips of 250 ms: about 4.2 minutes.
    const slow = { command: 'PING', n: 1000, modes: ['sequential'], rttMs: 250, repeats: 1 };
    client.send({ type: 'run', requestId: 'unasked', spec: slow });
    expect((await errorOf(client, 'unasked')).message).toMatch(
      /^This request is long: its sequential run should take about 4\.2 min \(1,000 round trips at 250 ms each\)\. Confirm it first \(the page asks; a script sends confirmLongRun: true\), or ask for N = 239 \(about a minute\)\.$/);
    // The probe's 11.6-day run: 1,000,000 round trips of 1 s, confirmed or not.
    client.send({ type: 'run', requestId: 'days', spec: { command: 'PING', n: 1_000_000, modes: ['sequential'], rttMs: 1000, repeats: 1, confirmLongRun: true } });
    expect((await errorOf(client, 'days')).message).toMatch(
      /^This request would take about 11\.6 days; this server runs a request for at most 10 min \(--max-run-seconds 600\)\. Ask for fewer commands, fewer repeats or less added delay\.$/);
    // Confirmed and within the bound: it runs (cancelled here, after its start).
    client.send({ type: 'run', requestId: 'asked', spec: { ...slow, confirmLongRun: true } });
    await client.next((m) => m.type === 'run-start' && m.requestId === 'asked');
    client.send({ type: 'cancel', requestId: 'asked' });
    expect((await client.end('asked')).type).toBe('cancelled');
    client.close();
  });

  it('stops a request that runs past --max-run-seconds, saying so', async () => {
    const app = await appWith({ maxRunSeconds: 1 });
    const client = await new LiveTestClient(app.url).open();
    // Expected ~10 ms (10 round trips of 0.2 ms), but a ±400 ms jitter clamped at 0 makes each ~200 ms.
    client.send({ type: 'run', requestId: 'jittery', spec: { command: 'PING', n: 20, modes: ['sequential'], rttMs: 0.2, jitterMs: 400, repeats: 1, cold: true } });
    const started = Date.now();
    const end = await client.end('jittery');
    expect(end).toEqual({ type: 'error', requestId: 'jittery', message: 'Run failed: stopped after 1 s, the longest a request may run on this server (--max-run-seconds 1).' });
    expect(Date.now() - started).toBeLessThan(3_000);
    client.send({ type: 'run', requestId: 'next', spec: SHORT }); // and the runner carries on
    expect((await client.end('next')).type).toBe('request-done');
    client.close();
  });
});

describe('fairness', () => {
  it('serves addresses in turn: a later client runs before the flooder\'s second request', async () => {
    const app = await appWith({ maxQueuedPerConnection: 4 });
    const flooder = await new LiveTestClient(app.url).open();
    const other = await new LiveTestClient(app.url, ELSEWHERE).open();
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
