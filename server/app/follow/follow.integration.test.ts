// Follow mode over real WebSockets against the real backend and a real redis-server: followers build the
// presenter's very traces, a late joiner is replayed the latest request, the display state is relayed at
// most 10 times a second, bad codes and full sessions are refused in words, a follower can neither run nor
// cancel the presenter's run, the session ends when the presenter stops or leaves, and a follower that
// stops reading is dropped instead of growing the server's memory.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FollowDisplay } from '../../../trace/protocol/follow-protocol.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';
import type { ClientLimits } from '../access/client-limits.ts';
import { UNKNOWN_CODE } from './follow-role.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';

let redis: PrivateRedis;
let app: RunningApp;
const apps: RunningApp[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
  app = await appWith({});
});

afterAll(async () => {
  for (const each of apps) await each.close();
  await redis?.stop();
});

async function appWith(limits: Partial<ClientLimits>): Promise<RunningApp> {
  const started = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}`, limits }, () => {});
  apps.push(started);
  return started;
}

type Of<T extends ServerMessage['type']> = Extract<ServerMessage, { type: T }>;
const is = <T extends ServerMessage['type']>(type: T) => (m: ServerMessage): m is Of<T> => m.type === type;
const SMALL = { command: 'INCR', n: 20, modes: ['sequential', 'pipeline'], repeats: 1 };
const LONG = { command: 'PING', n: 1_000_000, modes: ['sequential'], repeats: 1, memory: false, kernelTcp: false, confirmLongRun: true };
const DISPLAY: FollowDisplay = { view: 'run', scale: 'shared', positionUs: 250, playing: false, speed: 0.01, keys: { tour: '2' } };

/** A presenter sharing on `on`, and its code. */
async function presenter(on: RunningApp = app): Promise<{ client: LiveTestClient; code: string }> {
  const client = await new LiveTestClient(on.url).open();
  client.send({ type: 'follow-start' });
  const { code } = await client.next(is('follow-started'));
  return { client, code };
}

/** A follower as the page opens one: /live?follow=<code>, then follow-join. */
async function follower(code: string, on: RunningApp = app): Promise<LiveTestClient> {
  const client = await new LiveTestClient(`${on.url}?follow=${encodeURIComponent(code)}`).open();
  client.send({ type: 'follow-join', code });
  await client.next((m) => m.type === 'follow-joined' || m.type === 'follow-error');
  return client;
}

const followErrors = (client: LiveTestClient) => client.messages.filter(is('follow-error')).map((m) => m.message);

describe('follow mode', () => {
  it('gives an unguessable code: 128 bits, base64url, new each time', async () => {
    const a = await presenter();
    const b = await presenter();
    expect(a.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(b.code).not.toBe(a.code);
    a.client.close();
    b.client.close();
  });

  it('sends followers the presenter’s runs as they go: they build the same traces', async () => {
    const { client: lead, code } = await presenter();
    const one = await follower(code);
    const two = await follower(code);
    await lead.next((m) => m.type === 'follow-count' && m.followers === 2);
    expect(one.messages.find(is('follow-joined'))?.replay).toBe('none');
    lead.send({ type: 'run', requestId: 'r1', spec: SMALL });
    expect((await lead.end('r1')).type).toBe('request-done');
    for (const each of [one, two]) {
      expect((await each.end('r1')).type).toBe('request-done');
      expect(each.messages.find(is('follow-request'))).toMatchObject({ requestId: 'r1', spec: { command: 'INCR', n: 20 } });
      expect(each.tracesFor('r1')).toEqual(lead.tracesFor('r1'));
      expect(each.tracesFor('r1').map((doc) => doc.run.mode)).toEqual(['sequential', 'pipeline']);
    }
    for (const c of [lead, one, two]) c.close();
  });

  it('replays the presenter’s latest request and display state to a late joiner', async () => {
    const { client: lead, code } = await presenter();
    lead.send({ type: 'run', requestId: 'old', spec: SMALL });
    await lead.end('old');
    lead.send({ type: 'run', requestId: 'new', spec: { ...SMALL, n: 7 } });
    await lead.end('new');
    lead.send({ type: 'follow-display', display: DISPLAY });
    const late = await follower(code);
    expect(late.messages.find(is('follow-joined'))?.replay).toBe('complete');
    expect((await late.end('new')).type).toBe('request-done');
    expect(late.tracesFor('new')).toEqual(lead.tracesFor('new'));
    expect(late.tracesFor('old')).toEqual([]);
    expect((await late.next(is('follow-display'))).display).toEqual(DISPLAY);
    lead.close();
    late.close();
  });

  it('says when the latest request was too big to replay, and shows the next one whole', async () => {
    const small = await appWith({ maxFollowReplayBytes: 2_000 });
    const { client: lead, code } = await presenter(small);
    lead.send({ type: 'run', requestId: 'big', spec: { ...SMALL, n: 200 } });
    await lead.end('big');
    const late = await follower(code, small);
    expect(late.messages.find(is('follow-joined'))?.replay).toBe('too-big');
    lead.send({ type: 'run', requestId: 'next', spec: { ...SMALL, n: 3 } });
    await late.end('next');
    expect(late.tracesFor('next')).toEqual(lead.tracesFor('next'));
    expect(late.messages.some((m) => 'requestId' in m && m.requestId === 'big')).toBe(false);
    lead.close();
    late.close();
  });

  it('relays at most 10 display updates a second, the latest always last', async () => {
    const { client: lead, code } = await presenter();
    const watcher = await follower(code);
    const started = Date.now();
    for (let i = 1; i <= 40; i++) lead.send({ type: 'follow-display', display: { ...DISPLAY, positionUs: i } });
    await watcher.next((m) => m.type === 'follow-display' && m.display.positionUs === 40);
    const elapsedS = (Date.now() - started) / 1000;
    const relayed = watcher.messages.filter(is('follow-display'));
    expect(relayed.length).toBeLessThanOrEqual(Math.ceil(elapsedS * 10) + 1);
    expect(relayed.length).toBeLessThan(40);
    lead.close();
    watcher.close();
  });

  it('refuses an unknown code in words', async () => {
    const stranger = await follower('AAAAAAAAAAAAAAAAAAAAAA');
    expect(followErrors(stranger)).toEqual([UNKNOWN_CODE]);
    const typo = await follower('not a code');
    expect(followErrors(typo)).toEqual([UNKNOWN_CODE]);
    stranger.close();
    typo.close();
  });

  it('refuses followers beyond --max-followers, and presenters beyond --max-follow-sessions', async () => {
    const limited = await appWith({ maxFollowersPerSession: 2, maxFollowSessions: 1 });
    const { client: lead, code } = await presenter(limited);
    const followers = [await follower(code, limited), await follower(code, limited), await follower(code, limited)];
    expect(followErrors(followers[2]!)).toEqual(['This session is full: at most 2 may follow one presenter (--max-followers). Ask the presenter, or try later.']);
    const second = await new LiveTestClient(limited.url).open();
    second.send({ type: 'follow-start' });
    expect((await second.next(is('follow-error'))).message).toBe(
      'Too many presenters are sharing: at most 1 at once (--max-follow-sessions). Try again when one stops.');
    for (const c of [lead, second, ...followers]) c.close();
  });

  it('lets the documented 200 followers all join, though the presenter holds a runner\'s place and the rest are taken', async () => {
    const full = await appWith({ maxConnections: 2 }); // the presenter and one more runner: no runner's place left
    const { client: lead, code } = await presenter(full);
    const runner = await new LiveTestClient(full.url).open();
    const followers: LiveTestClient[] = [];
    for (let i = 0; i < 200; i++) followers.push(await follower(code, full));
    expect(followers.flatMap(followErrors)).toEqual([]);
    await lead.next((m) => m.type === 'follow-count' && m.followers === 200);
    lead.send({ type: 'run', requestId: 'r1', spec: SMALL });
    expect((await lead.end('r1')).type).toBe('request-done');
    expect((await followers[199]!.end('r1')).type).toBe('request-done');
    for (const c of [lead, runner, ...followers]) c.close();
  }, 60_000);

  it('lets a follower neither run, nor cancel, nor stop the presenter’s session, nor open the observing port', async () => {
    const { client: lead, code } = await presenter();
    const attendee = await follower(code);
    lead.send({ type: 'run', requestId: 'long', spec: LONG });
    await attendee.next((m) => m.type === 'run-start' && m.requestId === 'long');
    attendee.send({ type: 'cancel', requestId: 'long' });
    expect((await attendee.next((m) => m.type === 'error' && m.requestId === 'long'))).toMatchObject({ message: 'No run long to cancel.' });
    attendee.send({ type: 'run', requestId: 'mine', spec: SMALL });
    expect((await attendee.next((m) => m.type === 'error' && m.requestId === 'mine'))).toMatchObject({
      message: 'This tab follows a presenter, so it sends no runs of its own. Open Pipescope without ?follow= to run.' });
    attendee.send({ type: 'follow-start' });
    expect((await attendee.next(is('follow-error'))).message).toBe('This tab follows a presenter; it cannot share a session of its own.');
    // Nor drive the observing port: its place is a follower's, not a runner's.
    attendee.send({ type: 'observe-open', rttMs: 0, jitterMs: 0 });
    expect(await attendee.next((m) => m.type === 'error' && !m.requestId)).toMatchObject({
      message: 'This tab follows a presenter, so it may watch the observing port but not open, stop or drive it. Open Pipescope without ?follow= to observe.' });
    attendee.send({ type: 'follow-stop' });
    attendee.send({ type: 'follow-display', display: { ...DISPLAY, positionUs: 99 } });
    // The presenter's run goes on and is still relayed; only the presenter cancels it.
    lead.send({ type: 'follow-display', display: DISPLAY });
    expect((await attendee.next(is('follow-display'))).display.positionUs).toBe(DISPLAY.positionUs);
    lead.send({ type: 'cancel', requestId: 'long' });
    await attendee.next((m) => m.type === 'cancelled' && m.requestId === 'long');
    expect(attendee.messages.some(is('follow-ended'))).toBe(false);
    expect(attendee.messages.filter(is('follow-display')).map((m) => m.display.positionUs)).toEqual([DISPLAY.positionUs]);
    lead.close();
    attendee.close();
  });

  it('ends the session for its followers when the presenter stops sharing', async () => {
    const { client: lead, code } = await presenter();
    const attendee = await follower(code);
    lead.send({ type: 'follow-stop' });
    expect(await attendee.next(is('follow-ended'))).toMatchObject({ reason: 'stopped', message: 'The presenter stopped sharing.' });
    expect(followErrors(await follower(code))).toEqual([UNKNOWN_CODE]);
    lead.close();
    attendee.close();
  });

  it('ends the session when the presenter’s tab closes, and forgets the code', async () => {
    const { client: lead, code } = await presenter();
    const attendee = await follower(code);
    lead.close();
    expect(await attendee.next(is('follow-ended'))).toMatchObject({ reason: 'presenter-left' });
    expect(followErrors(await follower(code))).toEqual([UNKNOWN_CODE]);
    attendee.close();
  });

  it('drops a follower that stops reading, with a clear message, and tells the presenter the count', async () => {
    const tight = await appWith({ maxFollowerUnreadBytes: 1024 * 1024 });
    const { client: lead, code } = await presenter(tight);
    const slow = await follower(code, tight);
    await lead.next((m) => m.type === 'follow-count' && m.followers === 1);
    const tcp = (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    tcp.pause(); // the follower's page is frozen: it reads nothing, and the server's send buffer fills
    // GET replies are previewed up to 64 characters each: ~10 MB of relayed events, more than the kernel's buffers hold.
    lead.send({ type: 'run', requestId: 'flood', spec: { command: 'GET', n: 150_000, valueBytes: 64, modes: ['pipeline'], repeats: 1, memory: false, kernelTcp: false } });
    await lead.next((m) => m.type === 'follow-count' && m.followers === 0);
    lead.send({ type: 'cancel', requestId: 'flood' }); // no need to wait for the rest (on a quick machine it may be over already)
    expect(['cancelled', 'request-done']).toContain((await lead.end('flood')).type);
    tcp.resume();
    const ended = await slow.next(is('follow-ended'));
    expect(ended.reason).toBe('too-slow');
    expect(ended.message).toBe('Your connection fell too far behind the presenter (over 1 MiB unread, --max-follower-unread-bytes), ' +
      'so the server stopped sending you their runs. Reload the follow link to catch up.');
    expect(slow.messages.some((m) => m.type === 'cancelled' || m.type === 'request-done')).toBe(false); // dropped before the end
    for (const c of [lead, slow]) c.close();
  });
});
