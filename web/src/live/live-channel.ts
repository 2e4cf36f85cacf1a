// The page's one connection to the backend. Owns the LiveClient (the /live WebSocket), the connection
// state and what the backend says about itself (hello: its version and Redis; redis-status), and passes
// every message and connection change on to the stores that listen: the run store and the sweep store,
// in the order they started listening, synchronously as each message arrives. The status (connection,
// backend version, Redis) is a snapshot store of its own, published at most once per frame, for the
// header and the banner. Neither store knows the other; both know only this channel.
// On a backend that offers its two private targets (single Redis, Redis Cluster), the channel holds the
// page's pick (target-choice.ts): it asks the backend for it on every (re)connection, shows that target's
// status, and names it in every run and sweep the stores send (runTarget).
import type { ClientMessage, RedisStatus, ServerMessage, TargetName } from '../../../trace/protocol/live-protocol.ts';
import { NO_TARGET_CHOICE, foldTargetMessage, runTargetOf, shownStatus, type TargetChoice } from './target-choice.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import { LiveClient, liveUrl, type ConnectionState, type SocketLike } from './live-client.ts';

export interface LiveListener {
  onMessage(message: ServerMessage): void;
  onConnection(state: ConnectionState): void;
  /** A frame that failed validation, said in words (never thrown). */
  onInvalidMessage?(problem: string): void;
}

export interface ChannelStatus {
  connection: ConnectionState;
  /** From the backend's hello; null until it has said hello. */
  backendVersion: string | null;
  /** From hello, then from each redis-status: on a backend that offers targets, the picked target's (null while it starts). */
  redis: RedisStatus | null;
  /** The backend's targets and the page's pick (absent: none offered, as on a static site). */
  targets?: TargetChoice | undefined;
}

/** What a store needs of the channel: to send on it, to hear from it, and whether it is open now. */
export interface ChannelPort {
  readonly isOpen: boolean;
  send(message: ClientMessage): boolean;
  /** Hears every message and connection change from now on; returns the function that stops it. */
  listen(listener: LiveListener): () => void;
  /** Where runs and sweeps go, named in their request; undefined: the backend offers no choice. */
  readonly runTarget?: TargetName | undefined;
}

/** A fresh request id (at most 64 characters, as the protocol allows); the prefix says which kind of request. */
export function newRequestId(prefix: 'req' | 'sweep'): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `${prefix}-${random}`.slice(0, 64);
}

/** The target field of a run or sweep request: the channel's runTarget, when the backend offers a choice. */
export function targetOf(channel: Pick<ChannelPort, 'runTarget'>): { target?: TargetName } {
  const target = channel.runTarget;
  return target === undefined ? {} : { target };
}

/** What the page (app-view.tsx) needs of its channel: the stores' port, its status, and its lifetime. */
export interface PageChannel extends ChannelPort {
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ChannelStatus;
  start(): void;
  stop(): void;
  retryNow(): void;
  /** The page's pick of target (null: the backend's default); asked of the backend when it offers it. */
  pickTarget?(target: TargetName | null): void;
}

export class LiveChannel implements PageChannel {
  private readonly status: SnapshotStore<ChannelStatus>;
  private readonly listeners = new Set<LiveListener>();
  private client: LiveClient | null = null;
  private choice: TargetChoice = NO_TARGET_CHOICE;
  private lastRedis: RedisStatus | null = null;
  /** For useSyncExternalStore: the status, published at most once per frame. */
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => ChannelStatus;

  constructor(
    scheduler: FrameScheduler = frameScheduler,
    private readonly createSocket?: (url: string) => SocketLike,
  ) {
    this.status = new SnapshotStore<ChannelStatus>({ connection: { status: 'connecting', attempt: 1 }, backendVersion: null, redis: null }, scheduler);
    this.subscribe = this.status.subscribe;
    this.getSnapshot = this.status.getSnapshot;
  }

  /** Opens the socket (and keeps reopening it after a loss) until stop(). A second start does nothing. */
  start(url = liveUrl(window.location)): void {
    if (this.client) return;
    this.client = new LiveClient(url, {
      onConnection: (connection) => {
        this.status.update({ connection });
        for (const listener of this.listeners) listener.onConnection(connection);
      },
      onInvalidMessage: (problem) => {
        for (const listener of this.listeners) listener.onInvalidMessage?.(problem);
      },
      onMessage: (message) => {
        if (message.type === 'hello') this.status.update({ backendVersion: message.version });
        if (message.type === 'hello' || message.type === 'redis-status') this.lastRedis = message.redis;
        if (message.type === 'hello' || message.type === 'redis-status' || message.type === 'target-state') {
          this.choice = foldTargetMessage(this.choice, message);
          this.showChoice();
        }
        if (message.type === 'hello') this.askForTarget();
        for (const listener of this.listeners) listener.onMessage(message);
      },
    }, this.createSocket);
    this.client.start();
  }

  stop(): void {
    this.client?.stop();
    this.client = null;
  }

  get isOpen(): boolean {
    return this.client?.isOpen ?? false;
  }

  listen(listener: LiveListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** False when the socket is not open: nothing was sent. */
  send(message: ClientMessage): boolean {
    return this.client?.send(message) ?? false;
  }

  get runTarget(): TargetName | undefined {
    return runTargetOf(this.choice);
  }

  pickTarget(target: TargetName | null): void {
    if (target === this.choice.picked) return;
    this.choice = { ...this.choice, picked: target };
    this.showChoice();
    this.askForTarget();
  }

  /** The picked target, asked of a backend that offers it and did not start with it (so it starts, or says it is ready). */
  private askForTarget(): void {
    const target = runTargetOf(this.choice);
    if (target === undefined || target === this.choice.offered?.default) return;
    this.client?.send({ type: 'target', target });
  }

  private showChoice(): void {
    this.status.update({ redis: shownStatus(this.choice, this.lastRedis), targets: this.choice.offered ? this.choice : undefined });
  }

  /** The banner's "retry now": skips the backoff wait. */
  retryNow(): void {
    this.client?.retryNow();
  }
}
