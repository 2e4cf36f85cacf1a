// The one owner of every redraw: repaint requests from zoom, pan, hover, resize and live progress are
// merged into a single requestAnimationFrame. Tests read `<html data-render-pending>` (the app) or the
// player element's data-render-pending to wait for a settled frame before a screenshot.

type Task = () => void;

export class FrameScheduler {
  /** Keyed so that many requests for the same target within one frame run once, last one wins. */
  private readonly tasks = new Map<unknown, Task>();
  private handle: number | null = null;

  constructor(
    private readonly raf: (callback: () => void) => number = defaultRaf,
    /** Told when a frame is requested (true) and when one has run with nothing left queued (false). */
    private readonly onPendingChange: (pending: boolean) => void = () => {},
  ) {
    this.onPendingChange(false);
  }

  get pending(): boolean {
    return this.handle !== null;
  }

  request(key: unknown, task: Task): void {
    this.tasks.set(key, task);
    if (this.handle === null) {
      this.handle = this.raf(() => this.flush());
      this.onPendingChange(true);
    }
  }

  cancel(key: unknown): void {
    this.tasks.delete(key);
  }

  /** Runs every queued task once. Tasks queued while flushing run in the next frame. */
  flush(): void {
    this.handle = null;
    const tasks = [...this.tasks.values()];
    this.tasks.clear();
    for (const task of tasks) {
      try {
        task();
      } catch (error) {
        console.error('Pipescope: a repaint failed', error);
      }
    }
    if (this.handle === null) this.onPendingChange(false);
  }
}

function defaultRaf(callback: () => void): number {
  if (typeof requestAnimationFrame === 'function') return requestAnimationFrame(() => callback());
  return setTimeout(callback, 16) as unknown as number;
}

function publishPending(pending: boolean): void {
  if (typeof document !== 'undefined') document.documentElement.dataset['renderPending'] = String(pending);
}

let publishingOnPage = false;

/**
 * The app's scheduler. Everything that paints asks this one. Its pending state reaches `<html
 * data-render-pending>` only once the app's page asks (publishPendingOnPage, main.tsx): a docs page that
 * loads pipescope-player.js (which bundles this module) keeps its <html> as it was; each player marks its
 * own element instead.
 */
export const frameScheduler = new FrameScheduler(undefined, (pending) => {
  if (publishingOnPage) publishPending(pending);
});

/** From now on, `<html data-render-pending>` follows the app's scheduler (the app's page only). */
export function publishPendingOnPage(): void {
  publishingOnPage = true;
  publishPending(frameScheduler.pending);
}
