// The Redis targets a backend offers its pages. With no --redis-url it offers both of Pipescope's private
// ones, the single redis-server and the Redis Cluster: the one it was started with (`npm start`, or
// `--cluster`) is opened at once, the other when a page first asks for it, each kept by its keeper and
// under the same watchdogs (a node or server never outlives the backend), and both stopped on close. A
// user's own Redis (--redis-url) is the only target: nothing else is offered, or ever started.
// A start under way is shared by everyone who asks meanwhile; one that fails is told, and the next ask
// tries again. Listeners hear every change of a target's state (starting, ready, failed).
import type { TargetName } from '../../trace/protocol/live-protocol.ts';
import type { PrivateClusterKeeper } from './private-cluster-keeper.ts';
import type { PrivateRedisKeeper } from './private-redis-keeper.ts';
import type { RedisSession } from './redis-session.ts';

/** A Redis opened for a process to measure (open-redis.ts): its session, description and keepers. */
export interface OpenedRedis {
  session: RedisSession;
  description: string;
  /** The keeper of the private redis-server; absent for a Redis given by URL. */
  keeper?: PrivateRedisKeeper;
  /** The keeper of the private Redis Cluster (`cluster` given). */
  clusterKeeper?: PrivateClusterKeeper;
  close(): Promise<void>;
}


export type TargetPhase = 'off' | 'starting' | 'ready' | 'failed';

export interface TargetChange {
  target: TargetName;
  phase: TargetPhase;
  /** ready: ms from the start to ready (measured here, around the whole open); failed: undefined. */
  readyMs?: number;
  /** ready: the opened Redis's description; failed: why. */
  message?: string;
  /** ready: the opened Redis. */
  opened?: OpenedRedis;
}

/** How a target is opened: the private ones each by their own opener. */
export type TargetOpener = () => Promise<OpenedRedis>;

interface Slot {
  phase: TargetPhase;
  opened?: OpenedRedis;
  starting?: Promise<OpenedRedis>;
  readyMs?: number;
  failure?: string;
}

export class RedisTargets {
  private readonly slots = new Map<TargetName, Slot>();
  private readonly listeners = new Set<(change: TargetChange) => void>();
  private closed = false;

  /**
   * `first`: the target opened at start and its Redis; `openers`: how each private target opens (null: a
   * user's Redis, nothing else offered); `firstReadyMs`: how long the first one took to open.
   */
  constructor(
    readonly defaultTarget: TargetName,
    first: OpenedRedis,
    private readonly openers: Readonly<Record<TargetName, TargetOpener>> | null,
    firstReadyMs = 0,
  ) {
    this.slots.set(defaultTarget, { phase: 'ready', opened: first, readyMs: firstReadyMs });
  }

  /** The targets a page may choose between; null when the backend measures a user's Redis (no choice). */
  get offered(): TargetName[] | null {
    return this.openers ? (Object.keys(this.openers) as TargetName[]) : null;
  }

  /** The Redis opened at start (the observing port and the start-up line are about it). */
  get primary(): OpenedRedis {
    return this.slots.get(this.defaultTarget)!.opened!;
  }

  /** Whether a request may name this target: never on a backend measuring a user's Redis (it offers no choice). */
  isOffered(target: TargetName): boolean {
    return this.openers !== null && target in this.openers;
  }

  /** A target's state now, for a page that asks (target-state). */
  state(target: TargetName): TargetChange {
    const slot = this.slots.get(target);
    if (!slot) return { target, phase: 'off' };
    return {
      target,
      phase: slot.phase,
      ...(slot.readyMs !== undefined && slot.phase === 'ready' ? { readyMs: slot.readyMs } : {}),
      ...(slot.phase === 'ready' && slot.opened ? { message: slot.opened.description, opened: slot.opened } : {}),
      ...(slot.phase === 'failed' && slot.failure ? { message: slot.failure } : {}),
    };
  }

  /** The opened targets' Redis, each once (for status broadcasts). */
  opened(): Array<{ target: TargetName; opened: OpenedRedis }> {
    return [...this.slots].flatMap(([target, slot]) => (slot.phase === 'ready' && slot.opened ? [{ target, opened: slot.opened }] : []));
  }

  /** The target's session, opened now if it is not yet (an error says why it could not be). */
  async session(target: TargetName): Promise<RedisSession> {
    return (await this.open(target)).session;
  }

  /** Opens the target if it is not open or opening; resolves when it is ready. */
  open(target: TargetName): Promise<OpenedRedis> {
    const slot = this.slots.get(target);
    if (slot?.phase === 'ready' && slot.opened) return Promise.resolve(slot.opened);
    if (slot?.starting) return slot.starting;
    if (this.closed) return Promise.reject(new Error('The backend is stopping.'));
    const opener = this.openers?.[target];
    if (!opener) return Promise.reject(new Error(`This backend offers no ${target} target.`));
    const started = performance.now();
    const starting = opener().then(
      async (opened) => {
        const readyMs = performance.now() - started;
        if (this.closed) {
          await opened.close();
          throw new Error('The backend is stopping.');
        }
        this.slots.set(target, { phase: 'ready', opened, readyMs });
        this.tell({ target, phase: 'ready', readyMs, message: opened.description, opened });
        return opened;
      },
      (error: Error) => {
        const failure = error.message.split('\n')[0] ?? String(error);
        this.slots.set(target, { phase: 'failed', failure });
        if (!this.closed) this.tell({ target, phase: 'failed', message: failure });
        throw error;
      },
    );
    this.slots.set(target, { phase: 'starting', starting });
    this.tell({ target, phase: 'starting' });
    starting.catch(() => {}); // the caller hears it; an ask no one waits on must not be unhandled
    return starting;
  }

  /** Hears every target's change; returns the way to stop. */
  onChange(listener: (change: TargetChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private tell(change: TargetChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /** Stops every target, a start under way included (once it has started: then it is stopped). */
  async close(): Promise<void> {
    this.closed = true;
    const slots = [...this.slots.values()];
    await Promise.all(slots.map(async (slot) => {
      if (slot.starting) await slot.starting.catch(() => {}); // a start finishing now closes itself (closed)
      if (slot.phase === 'ready' && slot.opened) await slot.opened.close();
    }));
  }
}
