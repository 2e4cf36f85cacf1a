// One small store for React's useSyncExternalStore: an immutable snapshot, replaced by update(patch)
// and published to subscribers at most once per frame through the frame scheduler, however many
// updates arrive in between. The run store, the sweep store and the live channel's status are built
// on it, so none of them has its own copy of subscribe / publish.
import { frameScheduler, type FrameScheduler } from './frame-scheduler.ts';

export class SnapshotStore<T extends object> {
  private snapshot: T;
  private readonly listeners = new Set<() => void>();

  constructor(initial: T, private readonly scheduler: FrameScheduler = frameScheduler) {
    this.snapshot = initial;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current snapshot: a new object after every update, the same one until then. */
  getSnapshot = (): T => this.snapshot;

  /** Merges a change into a new snapshot now (getSnapshot sees it at once) and publishes it with the next frame. */
  update(patch: Partial<T>): void {
    this.snapshot = { ...this.snapshot, ...patch };
    this.scheduler.request(this, this.publish);
  }

  private readonly publish = (): void => {
    for (const listener of this.listeners) listener();
  };
}
