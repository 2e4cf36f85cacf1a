// The WebSocket endpoint browsers talk to, on the app's HTTP server. An upgrade must be for /live,
// name this server in its Host header and come from our own origin (or an allowed one); otherwise it
// is refused with 403 and the reason. Past the connection limits (connection-budget.ts: runners in all
// and per address; followers, whose upgrade names a live session with /live?follow=<code>, in a budget
// of their own), a connection is opened only to be closed at once with 1013 (try again later) and the
// reason, which a browser can read. Each connection is served by live-connection.ts; the Redis status
// goes to all of them when it changes, and while it does not answer.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { LIVE_PATH, type RedisStatus, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RedisSession } from '../../redis/redis-session.ts';
import type { RunQueue } from '../../runs/run-queue.ts';
import { measuring } from '../../runs/measurement-window.ts';
import type { ClientLimits } from '../access/client-limits.ts';
import { ConnectionBudget, clientAddress, type Pool } from '../access/connection-budget.ts';
import { FollowHub } from '../follow/follow-hub.ts';
import { refuseUpgrade } from '../access/http-gate.ts';
import type { ObserveHub } from '../../observe/observe-hub.ts';
import { MAX_FRAME_BYTES, serveConnection } from './live-connection.ts';
import type { RecentRuns } from './recent-runs.ts';
import { shown, type OriginPolicy } from '../access/origin-policy.ts';
import type { RefusalLog } from '../access/refusal-log.ts';
import type { Redactor } from '../access/secret-redactor.ts';
import type { HeaderOptions } from '../access/security-headers.ts';

const STATUS_INTERVAL_MS = 3_000;
/** WebSocket close code 1013: try again later. */
const TRY_AGAIN_LATER = 1013;

export interface LiveSettings {
  policy: OriginPolicy;
  headers: HeaderOptions;
  limits: ClientLimits;
  redact: Redactor;
  log: RefusalLog;
}

export function attachLiveEndpoint(http: Server, session: RedisSession, queue: RunQueue, settings: LiveSettings, observe: ObserveHub, recent?: RecentRuns): WebSocketServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  let connections = 0;
  const follow = new FollowHub(settings.limits, settings.redact);
  const budget = new ConnectionBudget(settings.limits);
  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const { path, followCode } = partsOf(request.url);
    if (path !== LIVE_PATH) return refuseUpgrade(socket, 404, `No WebSocket endpoint at ${shown(path)}; the live connection is ${LIVE_PATH}.`, settings.headers);
    const refusal = settings.policy.checkHost(request.headers.host) ?? settings.policy.checkOrigin(request.headers.origin, request.headers.host);
    if (refusal) {
      settings.log.note('live-refused', `refused a live connection: ${refusal}`);
      return refuseUpgrade(socket, 403, refusal, settings.headers);
    }
    const address = clientAddress(request.socket.remoteAddress);
    // A follower names a session that is live and has room; anyone else is a runner.
    const followed = followCode === null ? null : follow.find(followCode);
    const pool: Pool = followed && followed.followerCount < settings.limits.maxFollowersPerSession ? 'follower' : 'runner';
    wss.handleUpgrade(request, socket, head, (ws) => {
      const place = budget.admit(address, pool);
      if (typeof place === 'string') {
        settings.log.note('live-limit', `refused a live connection from ${address}: ${place}`);
        ws.close(TRY_AGAIN_LATER, place);
        return;
      }
      ws.once('close', place);
      serveConnection(ws, `c${++connections}`, { session, queue, limits: settings.limits, redact: settings.redact, log: settings.log, follow, observe, ...(recent ? { recent } : {}) }, { address, follower: pool === 'follower' });
    });
  });

  let lastStatus = '';
  const publish = (redis: RedisStatus) => {
    if (redis.message) redis.message = settings.redact(redis.message);
    const text = JSON.stringify(redis);
    if (text === lastStatus) return;
    lastStatus = text;
    const message: ServerMessage = { type: 'redis-status', redis };
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(JSON.stringify(message));
  };
  const broadcastStatus = async () => {
    // The health check's PING is traffic too: between a run's INFO snapshots it would land in the run's
    // deltas (and make them non-exclusive), so it waits for their end; a run that finds Redis silent
    // says so itself meanwhile (session.noteSilence). Before and between runs, with requests waiting,
    // it still asks: a Redis that stops answering is said while it lasts.
    if (measuring()) return;
    publish(await session.status());
  };
  // A restart of the private redis-server (redis/private-redis-keeper.ts) is told at once; no PING.
  const stopListening = session.onChange(publish);
  const timer = setInterval(() => void broadcastStatus(), STATUS_INTERVAL_MS);
  timer.unref();
  wss.on('close', () => {
    clearInterval(timer);
    stopListening();
  });
  return wss;
}

/** The request's path, and the follow code it names (/live?follow=<code>), if any. */
function partsOf(url: string | undefined): { path: string; followCode: string | null } {
  try {
    const parsed = new URL(url ?? '/', 'http://localhost');
    return { path: parsed.pathname, followCode: parsed.searchParams.get('follow') };
  } catch {
    return { path: url ?? '', followCode: null };
  }
}
