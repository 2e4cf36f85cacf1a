// One client cannot hold everyone else out, against the built backend with its default limits: a
// script at one address opens 205 sockets, asks for an 11.6-day run, shares as many follow sessions as
// it can and queues what it may; another client (a second loopback address, 127.0.0.2) still connects,
// starts a follow session, and its run starts within its turn: after the run under way, before the
// script's other requests. Figures: what the script got, how long the other client waited.
// Before: the script took all 200 connections and all 20 follow sessions, and its run was accepted.
import WebSocket from 'ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_CLIENT_LIMITS } from '../server/app/access/client-limits.ts';
import { buildServer, LiveClient, startBackend, type Backend } from '../server/test-support/backend-process.ts';
import { figure, requestEnd } from './hard-support.ts';

let backend: Backend;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  expect(buildServer()).toBe('');
  backend = await startBackend();
}, 180_000);

afterAll(async () => {
  for (const socket of sockets) socket.terminate();
  await backend?.stop();
});

/** Opens a socket; resolves with it once open and greeted, or with the close code and reason. */
function open(url: string): Promise<{ socket: WebSocket } | { closed: number; reason: string }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    sockets.push(socket);
    socket.once('message', () => resolve({ socket }));
    socket.once('close', (code, reason) => resolve({ closed: code, reason: reason.toString() }));
    socket.once('error', () => {});
  });
}

/** The next message on `socket` that matches. */
function next(socket: WebSocket, match: (m: { type: string; requestId?: string; [key: string]: unknown }) => boolean): Promise<{ type: string; [key: string]: unknown }> {
  return new Promise((resolve) => {
    const onMessage = (data: WebSocket.RawData) => {
      const message = JSON.parse(data.toString());
      if (!match(message)) return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
  });
}

it('a script with 205 sockets and an 11-day run: another client connects, shares, and runs in its turn', async () => {
  const opened = await Promise.all(Array.from({ length: 205 }, () => open(backend.wsUrl)));
  const mine = opened.filter((o): o is { socket: WebSocket } => 'socket' in o).map((o) => o.socket);
  const refused = opened.filter((o): o is { closed: number; reason: string } => 'closed' in o);
  expect(mine).toHaveLength(DEFAULT_CLIENT_LIMITS.maxConnectionsPerAddress);
  expect(refused.every((r) => r.closed === 1013 && /from your address/.test(r.reason))).toBe(true);

  // The 11.6-day run, confirmed: refused outright.
  const days = next(mine[0]!, (m) => m.requestId === 'days');
  mine[0]!.send(JSON.stringify({ type: 'run', requestId: 'days', spec: { command: 'PING', n: 1_000_000, modes: ['sequential'], rttMs: 1000, repeats: 1, confirmLongRun: true } }));
  expect(await days).toMatchObject({ type: 'error', message: expect.stringMatching(/^This request would take about 11\.6 days; this server runs a request for at most 10 min/) });

  // As many follow sessions as it can.
  const sessions = await Promise.all(mine.slice(0, 20).map((socket) => {
    const answer = next(socket, (m) => m.type === 'follow-started' || m.type === 'follow-error');
    socket.send(JSON.stringify({ type: 'follow-start' }));
    return answer;
  }));
  const shared = sessions.filter((m) => m.type === 'follow-started').length;
  expect(shared).toBe(DEFAULT_CLIENT_LIMITS.maxFollowSessionsPerAddress);

  // Then it queues what it may: a run of ~20 s, confirmed, from each socket.
  const long = { command: 'PING', n: 100, modes: ['sequential'], rttMs: 200, repeats: 1, confirmLongRun: true, memory: false };
  const answers = await Promise.all(mine.map((socket, i) => {
    const answer = next(socket, (m) => m.requestId === `q${i}` && (m.type === 'queued' || m.type === 'error'));
    socket.send(JSON.stringify({ type: 'run', requestId: `q${i}`, spec: long }));
    return answer;
  }));
  const queued = answers.filter((m) => m.type === 'queued').length;
  expect(queued).toBe(DEFAULT_CLIENT_LIMITS.maxQueuedPerAddress);

  // Another client: it connects, shares a session, and its run comes next.
  const other = await LiveClient.open(backend.wsUrl, { localAddress: '127.0.0.2' });
  other.send({ type: 'follow-start' });
  expect((await other.next((m) => m.type === 'follow-started' || m.type === 'follow-error')).type).toBe('follow-started');
  const askedAt = other.send({ type: 'run', requestId: 'mine', spec: { command: 'PING', n: 100, modes: ['pipeline'], repeats: 1 } });
  const position = await other.next((m) => m.type === 'queued' && m.requestId === 'mine');
  expect(position).toMatchObject({ position: 1 }); // after the script's run under way only
  const started = await other.nextAt((m) => m.type === 'run-start' && m.requestId === 'mine', 0, 60_000);
  expect((await requestEnd(other, 'mine')).message.type).toBe('request-done');
  const waitedS = (started.at - askedAt) / 1000;
  figure('one client with 205 sockets', `${mine.length} connected (${refused.length} refused with 1013), its 11.6-day run refused, ${shared} follow sessions, ${queued} requests queued`);
  figure('another client\'s run started after', `${waitedS.toFixed(1)} s: the script's run under way (~20 s), then it (position 1; before: behind an 11.6-day run)`);
  expect(waitedS).toBeLessThan(40);
  other.close();
}, 300_000);
