// The WebSocket endpoint browsers talk to, on the app's HTTP server. An upgrade must be for /live,
// name this server in its Host header and come from our own origin (or an allowed one); otherwise it
// is refused with 403 and the reason. Past the connection limits (connection-budget.ts: runners in all
// and per address; followers, whose upgrade names a live session with /live?follow=<code>, in a budget
// of their own), a connection is opened only to be closed at once with 1013 (try again later) and the
// reason, which a browser can read. Each connection is served by live-connection.ts; the Redis status
// goes to all of them when it changes, and while it does not answer. A backend that offers both private
// targets (redis-targets.ts) tells each target's status under its name, and every target's start
// (starting, ready in …, failed) to every page.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { LIVE_PATH, type RedisStatus, type ServerMessage, type TargetName } from '../../../trace/protocol/live-protocol.ts';
import type { RedisTargets } from '../../redis/redis-targets.ts';
import { targetStateMessage } from './target-state.ts';
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

export function attachLiveEndpoint(http: Server, targets: RedisTargets, queue: RunQueue, settings: LiveSettings, observe: ObserveHub, recent?: RecentRuns): WebSocketServer {
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
      serveConnection(ws, `c${++connections}`, { targets, queue, limits: settings.limits, redact: settings.redact, log: settings.log, follow, observe, ...(recent ? { recent } : {}) }, { address, follower: pool === 'follower' });
    });
  });

  const broadcast = (message: ServerMessage) => {
    const text = JSON.stringify(message);
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(text);
  };
  // Each status is named by its target when the backend offers a choice; a user's Redis's is not.
  const named = targets.offered !== null;
  const lastStatus = new Map<TargetName, string>();
  const publish = (target: TargetName, redis: RedisStatus) => {
    if (redis.message) redis.message = settings.redact(redis.message);
    const text = JSON.stringify(redis);
    if (text === lastStatus.get(target)) return;
    lastStatus.set(target, text);
    broadcast(named ? { type: 'redis-status', redis, target } : { type: 'redis-status', redis });
  };
  const broadcastStatus = async () => {
    // The health check's PING is traffic too: between a run's INFO snapshots it would land in the run's
    // deltas (and make them non-exclusive), so it waits for their end; a run that finds Redis silent
    // says so itself meanwhile (session.noteSilence). Before and between runs, with requests waiting,
    // it still asks: a Redis that stops answering is said while it lasts.
    for (const { target, opened } of targets.opened()) {
      if (measuring()) return;
      publish(target, await opened.session.status());
    }
  };
  // A restart of a private Redis (redis/private-redis-keeper.ts, private-cluster-keeper.ts) is told at
  // once, no PING; a target opened later is listened to from when it is ready.
  const stops = targets.opened().map(({ target, opened }) => opened.session.onChange((redis) => publish(target, redis)));
  stops.push(targets.onChange((change) => {
    if (change.phase === 'ready' && change.opened) {
      const session = change.opened.session;
      stops.push(session.onChange((redis) => publish(change.target, redis)));
      void session.status().then((redis) => broadcast(targetStateMessage(change, redis, settings.redact)));
      return;
    }
    broadcast(targetStateMessage(change, undefined, settings.redact));
  }));
  const timer = setInterval(() => void broadcastStatus(), STATUS_INTERVAL_MS);
  timer.unref();
  wss.on('close', () => {
    clearInterval(timer);
    for (const stop of stops) stop();
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
