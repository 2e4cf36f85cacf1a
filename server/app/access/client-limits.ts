// What one client may ask of a shared Pipescope, so that a room of attendees (or one runaway script)
// cannot starve the others: connections at once, requests waiting per connection, requests started
// per minute per connection, and commands waiting in all; for follow mode, sessions, followers per
// session, how far a follower may fall behind and how much a late joiner is replayed. A script opens
// as many connections as it likes, so connections, waiting requests and follow sessions are also
// limited per client address (the peer's IP address: behind a reverse proxy every client shares the
// proxy's). Followers (a connection opened with a live session's follow code) have a budget of their
// own, so a presenter's room never competes with runners for connections. How long a request may
// take is bounded too (maxRunSeconds; duration-bound.ts). Each refusal says which limit, its value,
// which flag changes it and what to do now. The defaults suit a workshop of ~50 people, a tab or two each.
import { plannedRounds, runsPerRound } from '../../../trace/format/run-request.ts';
import type { ClientMessage } from '../../../trace/protocol/live-protocol.ts';

export interface ClientLimits {
  /** WebSocket connections open at once, across all clients (followers not counted: see followerBudget). */
  maxConnections: number;
  /** WebSocket connections open at once from one client address (followers not counted). */
  maxConnectionsPerAddress: number;
  /** Requests one connection may have waiting or running at once. */
  maxQueuedPerConnection: number;
  /** Requests all connections from one address may have waiting or running at once. */
  maxQueuedPerAddress: number;
  /** Requests (runs or sweeps) one connection may start per minute, however many modes or repeats each has. */
  maxRunsPerMinute: number;
  /** Commands all waiting and running requests may add up to; a request on an idle queue is always taken. */
  maxQueuedCommands: number;
  /** Follow sessions (presenters sharing) at once. */
  maxFollowSessions: number;
  /** Follow sessions started from one address at once. */
  maxFollowSessionsPerAddress: number;
  /** Followers one follow session may have. */
  maxFollowersPerSession: number;
  /** A follower that leaves more than this of the relayed stream unread (bytes, beyond its join replay) is dropped. */
  maxFollowerUnreadBytes: number;
  /** A follow session keeps at most this much of the presenter's latest request (bytes) to replay to late joiners. */
  maxFollowReplayBytes: number;
  /**
   * The longest a request may run (seconds), from its start to its end: one expected to take longer is
   * refused, one that runs longer is stopped. Runs expected past two minutes need the user's confirmation.
   */
  maxRunSeconds: number;
}

export const DEFAULT_CLIENT_LIMITS: ClientLimits = {
  maxConnections: 200,
  maxConnectionsPerAddress: 32,
  maxQueuedPerConnection: 3,
  maxQueuedPerAddress: 6,
  maxRunsPerMinute: 30,
  maxQueuedCommands: 30_000_000,
  maxFollowSessions: 20,
  maxFollowSessionsPerAddress: 2,
  maxFollowersPerSession: 200,
  maxFollowerUnreadBytes: 8 * 1024 * 1024,
  maxFollowReplayBytes: 16 * 1024 * 1024,
  maxRunSeconds: 600,
};

/** The limits' flags, named once for the messages and the usage text. */
export const LIMIT_FLAGS = {
  maxConnections: '--max-connections',
  maxConnectionsPerAddress: '--max-connections-per-address',
  maxQueuedPerConnection: '--max-queued-per-client',
  maxQueuedPerAddress: '--max-queued-per-address',
  maxRunsPerMinute: '--max-runs-per-minute',
  maxQueuedCommands: '--max-queued-commands',
  maxFollowSessions: '--max-follow-sessions',
  maxFollowSessionsPerAddress: '--max-follow-sessions-per-address',
  maxFollowersPerSession: '--max-followers',
  maxFollowerUnreadBytes: '--max-follower-unread-bytes',
  maxFollowReplayBytes: '--max-follow-replay-bytes',
  maxRunSeconds: '--max-run-seconds',
} as const satisfies Record<keyof ClientLimits, string>;

const RATE_WINDOW_MS = 60_000;

/** Most commands a request can send: each mode (once per compared variant) in every round it may run; a sweep's runs (twice, with the reference). */
export function requestCommands(request: Extract<ClientMessage, { type: 'run' | 'sweep' }>): number {
  if (request.type === 'run') return request.spec.n * runsPerRound(request.spec) * plannedRounds(request.spec);
  const { perPoint, repeats, depths, reference } = request.spec;
  return perPoint * repeats * depths.length * (reference ? 2 : 1);
}

/** A connection's requests started in the last minute (a sliding window of their times, ms). */
export class RequestRate {
  private readonly started: number[] = [];

  constructor(private readonly perMinute: number) {}

  /** Milliseconds until one more request may start; 0 = now. */
  waitMs(nowMs: number): number {
    while (this.started.length > 0 && this.started[0]! <= nowMs - RATE_WINDOW_MS) this.started.shift();
    return this.started.length < this.perMinute ? 0 : this.started[0]! + RATE_WINDOW_MS - nowMs;
  }

  record(nowMs: number): void {
    this.started.push(nowMs);
  }
}

export interface QueueState {
  /** This connection's requests waiting or running. */
  mine: number;
  /** The requests of every connection from this connection's address, waiting or running (default: mine). */
  fromAddress?: number;
  /** Commands of all requests waiting or running. */
  queuedCommands: number;
  /** Requests waiting or running, all connections. */
  length: number;
}

/** Why this request may not join the queue now, in words for the person who asked; null = it may. */
export function admissionRefusal(limits: ClientLimits, state: QueueState, commands: number, rateWaitMs: number): string | null {
  if (state.mine >= limits.maxQueuedPerConnection) {
    return `Too many requests at once: a connection may have ${limits.maxQueuedPerConnection} waiting or running ` +
      `(${LIMIT_FLAGS.maxQueuedPerConnection}). Wait for one to finish, or cancel one.`;
  }
  if ((state.fromAddress ?? state.mine) >= limits.maxQueuedPerAddress) {
    return `Too many requests from your address at once: one address may have ${limits.maxQueuedPerAddress} waiting or running ` +
      `(${LIMIT_FLAGS.maxQueuedPerAddress}). Wait for one to finish, or cancel one.`;
  }
  if (rateWaitMs > 0) {
    return `Too many requests: a connection may start ${limits.maxRunsPerMinute} per minute ` +
      `(${LIMIT_FLAGS.maxRunsPerMinute}). Try again in ${Math.ceil(rateWaitMs / 1000)} s.`;
  }
  if (state.length > 0 && state.queuedCommands + commands > limits.maxQueuedCommands) {
    return `The queue is full: ${count(state.queuedCommands)} commands are waiting or running and this request adds ` +
      `${count(commands)}; together they may be ${count(limits.maxQueuedCommands)} (${LIMIT_FLAGS.maxQueuedCommands}). ` +
      'Try again when the queue is shorter, or ask for fewer commands.';
  }
  return null;
}

/** The close reason for a connection over the limit (a WebSocket close reason holds at most 123 bytes). */
export function connectionRefusal(limits: ClientLimits): string {
  return `Too many connections: at most ${limits.maxConnections} (${LIMIT_FLAGS.maxConnections}). Close other tabs or try later.`;
}

/** The close reason for a connection over its address's limit (at most 123 bytes). */
export function addressConnectionRefusal(limits: ClientLimits): string {
  return `Too many connections from your address: at most ${limits.maxConnectionsPerAddress} (${LIMIT_FLAGS.maxConnectionsPerAddress}). Close other tabs.`;
}

/** The close reason for a follower over the followers' own budget (at most 123 bytes). */
export function followerRefusal(budget: FollowerBudget): string {
  return `Too many followers: at most ${budget.total} in all, ${budget.perAddress} from one address. Try later.`;
}

/**
 * Followers' own connection budget, beside the runners' (maxConnections): every session full, and from
 * one address at most one full session's worth (a room's laptops have addresses of their own; one
 * machine opening a whole session's followers still can).
 */
export interface FollowerBudget {
  total: number;
  perAddress: number;
}

export function followerBudget(limits: ClientLimits): FollowerBudget {
  return { total: limits.maxFollowSessions * limits.maxFollowersPerSession, perAddress: limits.maxFollowersPerSession };
}

const count = (n: number) => n.toLocaleString('en-US');
