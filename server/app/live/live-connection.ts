// One browser tab's WebSocket: every incoming message is checked (size, JSON, schema) and anything
// wrong gets a clear error back while the connection carries on; accepted requests join the shared
// queue under this connection's name, within the client limits, and only this connection can cancel
// them. Every error or status text leaving here passes the secret redactor. A closed tab cancels its runs.
// Follow mode's messages go to the connection's FollowRole (follow-role.ts); a following tab runs nothing,
// and neither does a connection admitted as a follower (live-endpoint.ts). Requests take their turns by
// the client's address, are limited per address too, and are held to the server's bound on a request's
// duration (duration-bound.ts): refused when expected too long, stopped when running too long.
// A request goes to the target it names (redis-targets.ts; a private one not yet running is started while
// the request waits its turn), or else to the backend's default: chosen when asked, so a later switch of
// the page never moves a request already queued or running.
import type { WebSocket } from 'ws';
import { ClientMessageSchema, parseFrame, type ClientMessage, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RedisTargets } from '../../redis/redis-targets.ts';
import { targetRefusal, targetStateMessage } from './target-state.ts';
import type { RunQueue } from '../../runs/run-queue.ts';
import { projectVersion } from '../../support/project-root.ts';
import { LIMIT_FLAGS, RequestRate, admissionRefusal, requestCommands, type ClientLimits } from '../access/client-limits.ts';
import { durationRefusal } from '../access/duration-bound.ts';
import { durationText } from '../../support/duration-text.ts';
import type { FollowHub } from '../follow/follow-hub.ts';
import { FollowRole, isFollowMessage } from '../follow/follow-role.ts';
import { ObserveRole, isObserveMessage } from './observe-role.ts';
import type { ObserveHub } from '../../observe/observe-hub.ts';
import { runRequest, sweepRequest } from './live-requests.ts';
import type { RecentRuns } from './recent-runs.ts';
import type { RefusalLog } from '../access/refusal-log.ts';
import type { Redactor } from '../access/secret-redactor.ts';

/** The largest message a client may send (bytes); larger ones, up to the socket's limit, get an error. */
export const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
/** Frames beyond this (bytes) close the connection with 1009, as WebSocket servers do. */
export const MAX_FRAME_BYTES = 4 * MAX_CLIENT_MESSAGE_BYTES;
/** A client that leaves this much of our replies unread (bytes) while sending more is cut off. */
const MAX_UNREAD_BYTES = 8 * 1024 * 1024;

export interface ConnectionContext {
  /** The Redis targets the backend offers; requests go to the one they name, else to its default. */
  targets: RedisTargets;
  queue: RunQueue;
  limits: ClientLimits;
  redact: Redactor;
  log: RefusalLog;
  follow: FollowHub;
  /** The runs kept for links (recent-runs.ts), shared by every tab; absent: none kept. */
  recent?: RecentRuns;
  /** The observing port, shared by every tab. */
  observe: ObserveHub;
}

/** Who is at the other end: the client's address, and whether it was admitted as a follower only. */
export interface Peer {
  address: string;
  follower: boolean;
}

const FOLLOWER_ONLY = 'This tab follows a presenter, so it sends no runs of its own. Open Pipescope without ?follow= to run.';
const FOLLOWER_NO_OBSERVE = 'This tab follows a presenter, so it may watch the observing port but not open, stop or drive it. Open Pipescope without ?follow= to observe.';

export function serveConnection(socket: WebSocket, owner: string, context: ConnectionContext, peer: Peer = { address: owner, follower: false }): void {
  const { targets, queue, limits, log } = context;
  const session = targets.primary.session;
  const send = sender(socket, context.redact);
  const rate = new RequestRate(limits.maxRunsPerMinute);
  const mine = new Set<string>();
  /** How each request's messages are sent (relayed to followers too when asked while sharing). */
  const senders = new Map<string, (message: ServerMessage) => void>();
  const follow = new FollowRole(socket, send, context.follow, peer.address);
  const observe = new ObserveRole(context.observe, send);
  const offered = targets.offered;
  void session.status().then((redis) => send({ type: 'hello', version: projectVersion(), redis, ...(offered ? { targets: { offered, default: targets.defaultTarget } } : {}) }));

  const handle = (data: Buffer, isBinary: boolean) => {
    const message = parseMessage(data, isBinary);
    if ('error' in message) {
      if (socket.bufferedAmount > MAX_UNREAD_BYTES) return socket.close(1008, 'Too many unread replies: read them before sending more.');
      return send({ type: 'error', message: message.error });
    }
    const request = message.value;
    if (isFollowMessage(request)) return follow.handle(request);
    if (isObserveMessage(request)) {
      // A follower's place is not a runner's: it may watch the observing port, not drive it.
      if (peer.follower && request.type !== 'observe-watch') return send({ type: 'error', message: FOLLOWER_NO_OBSERVE });
      return observe.handle(request);
    }
    if (request.type === 'target') {
      const refused = targetRefusal(targets, request.target);
      if (refused) return send({ type: 'error', message: refused });
      // Ready: told to this page alone, with its status; otherwise its start is told to every page (live-endpoint.ts).
      const now = targets.state(request.target);
      if (now.phase === 'ready' && now.opened) void now.opened.session.status().then((redis) => send(targetStateMessage(now, redis, context.redact)));
      else if (now.phase === 'starting') send(targetStateMessage(now, undefined, context.redact));
      else void targets.open(request.target).catch(() => {}); // its failure is told as target-state
      return;
    }
    const { requestId } = request;
    if (request.type === 'cancel') {
      const outcome = mine.has(requestId) ? queue.cancel(owner, requestId) : null;
      if (outcome === null) return send({ type: 'error', requestId, message: `No run ${requestId} to cancel.` });
      if (outcome === 'removed') {
        mine.delete(requestId);
        (senders.get(requestId) ?? send)({ type: 'cancelled', requestId });
        senders.delete(requestId);
      }
      return; // a running request reports 'cancelled' itself once its run has stopped
    }
    if (mine.has(requestId)) return send({ type: 'error', requestId, message: `Request ${requestId} already exists.` });
    if (follow.isFollowing || peer.follower) {
      return send({ type: 'error', requestId, message: FOLLOWER_ONLY });
    }
    const target = request.target ?? targets.defaultTarget;
    const refusedTarget = request.target === undefined ? undefined : targetRefusal(targets, request.target);
    if (refusedTarget) return send({ type: 'error', requestId, message: refusedTarget });
    const commands = requestCommands(request);
    const now = Date.now();
    const state = { mine: queue.jobsOf(owner), fromAddress: queue.jobsOfGroup(peer.address), queuedCommands: queue.queuedCommands, length: queue.length };
    const refusal = admissionRefusal(limits, state, commands, rate.waitMs(now)) ?? durationRefusal(request, session.baseRttUs, limits.maxRunSeconds);
    if (refusal) return send({ type: 'error', requestId, message: refusal });
    rate.record(now);
    mine.add(requestId);
    // A run (not a sweep) asked while sharing is relayed to the followers as it goes.
    const requestSend = request.type === 'run' ? follow.requestSender(requestId, request.spec, send) : send;
    senders.set(requestId, requestSend);
    queue.enqueue({
      owner,
      group: peer.address,
      id: requestId,
      commands,
      maxMs: limits.maxRunSeconds * 1000,
      limitMessage: `stopped after ${durationText(limits.maxRunSeconds * 1e6)}, the longest a request may run on this server (${LIMIT_FLAGS.maxRunSeconds} ${limits.maxRunSeconds}).`,
      onPosition: (position) => requestSend({ type: 'queued', requestId, position }),
      run: (signal) => targets.session(target).then(
        (on) => (request.type === 'sweep'
          ? sweepRequest(send, on, requestId, request.spec, signal)
          : runRequest(requestSend, on, requestId, request.spec, signal, context.recent)),
        (error: Error) => send({ type: 'error', requestId, message: `${request.type === 'sweep' ? 'Sweep' : 'Run'} failed: ${target === 'cluster' ? 'the private Redis Cluster' : 'the private Redis'} could not be started: ${error.message}` }),
      ).finally(() => {
        mine.delete(requestId);
        senders.delete(requestId);
      }),
    });
  };

  socket.on('message', (data: Buffer, isBinary) => {
    try {
      handle(data, isBinary);
    } catch (error) {
      log.note('internal', `a live message could not be handled: ${context.redact(String((error as Error)?.message ?? error))}`);
      send({ type: 'error', message: 'The backend could not handle that message (an internal error); it carries on.' });
    }
  });
  socket.on('close', () => {
    follow.close();
    observe.close();
    queue.cancelOwner(owner);
  });
  socket.on('error', () => socket.terminate());
}

type Parsed = { value: ClientMessage } | { error: string };

function parseMessage(data: Buffer, isBinary: boolean): Parsed {
  if (data.length > MAX_CLIENT_MESSAGE_BYTES) {
    return { error: `Message too large: ${data.length.toLocaleString('en-US')} bytes; a message may be at most ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB.` };
  }
  const frame = parseFrame(ClientMessageSchema, isBinary ? null : data.toString());
  if ('value' in frame) return frame;
  const { problem } = frame;
  if (problem.kind === 'binary') return { error: 'Binary messages are not understood; send JSON text.' };
  if (problem.kind === 'json') return { error: 'Message is not valid JSON.' };
  return { error: `Invalid message: ${problem.issues}` };
}

/** Sends on the socket while it is open; error and status texts pass the redactor first. */
function sender(socket: WebSocket, redact: Redactor): (message: ServerMessage) => void {
  return (message) => {
    if (socket.readyState !== socket.OPEN) return;
    if (message.type === 'error') message = { ...message, message: redact(message.message) };
    if ((message.type === 'hello' || message.type === 'redis-status') && message.redis.message) {
      message = { ...message, redis: { ...message.redis, message: redact(message.redis.message) } };
    }
    socket.send(JSON.stringify(message));
  };
}
