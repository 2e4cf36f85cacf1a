// Keeps something Pipescope started for itself running: its private redis-server or its private Redis
// Cluster, each described by a start/stop pair (KeptService). If it ends without being asked (killed,
// crashed, out of memory), what is left of it is stopped and a fresh one started (on its old ports when
// they are free, else on new ones), the session pointed at it, and browsers told twice through the
// session (redis-status): down with the reason while it restarts, then up with "restarted …". Attempts
// back off: 0.1 s, 0.2 s, 0.4 s … up to 10 s apart, and one that dies again within a minute of a restart
// starts further up that scale, so a server that cannot stay up does not spin.
import type { RedisSession } from './redis-session.ts';
import type { RedisTarget } from './redis-target.ts';

export const FIRST_RESTART_DELAY_MS = 100;
export const MAX_RESTART_DELAY_MS = 10_000;
/** One that stayed up this long after a restart starts the scale again from the first delay. */
const STABLE_AFTER_MS = 60_000;
/** How long browsers see the "restarted" note (while up). */
const RESTARTED_NOTE_MS = 60_000;

export function restartDelayMs(attempt: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.min(attempt, 16));
}

/** What one ending without being asked was, in words: "The private redis-server", "killed by SIGKILL". */
export interface UnexpectedExit {
  /** What stopped, as a sentence starts. */
  what: string;
  /** How, in a few words (its last log line when it said why). */
  why: string;
}

/** How a kept thing is started, stopped, watched and named. */
export interface KeptService<T> {
  /** A fresh one, on `previous`'s ports when they are free, else on any free ones. */
  startAgain(previous: T): Promise<T>;
  /** Stops it (and removes its folders); also what is left of one that ended unasked. */
  stop(kept: T): Promise<void>;
  /** Calls `listener` once if it ends without stop(). */
  onUnexpectedExit(kept: T, listener: (exit: UnexpectedExit) => void): void;
  /** The session's target for it. */
  target(kept: T): RedisTarget;
  /** What the "restarting …" note calls it: "it", "the cluster". */
  restartingWhat: string;
  /** Ends the "restarted" note: "one (pid 123)", "cluster (ready in 2.1 s)". */
  freshOne(kept: T): string;
}

export class PrivateKeeper<T> {
  private closed = false;
  private restarting: Promise<void> | undefined;
  /** Ends the wait before the next attempt (close() does not wait out a backoff). */
  private wake: () => void = () => {};
  private lastRestartAt = 0;
  /** Restarts in a row that did not stay up STABLE_AFTER_MS: where the backoff scale starts. */
  private unstable = 0;
  /** How many times it was restarted (for tests and the description). */
  restarts = 0;

  constructor(
    private kept: T,
    private readonly session: RedisSession,
    private readonly service: KeptService<T>,
  ) {
    this.watch(kept);
  }

  get current(): T {
    return this.kept;
  }

  private watch(kept: T): void {
    this.service.onUnexpectedExit(kept, (exit) => {
      if (this.closed || kept !== this.kept) return;
      this.restarting = this.restart(exit).finally(() => (this.restarting = undefined));
    });
  }

  private async restart({ what, why }: UnexpectedExit): Promise<void> {
    const stopped = `${what} stopped at ${clock(new Date())} (${why})`;
    this.unstable = Date.now() - this.lastRestartAt < STABLE_AFTER_MS ? this.unstable + 1 : 0;
    this.session.announce({ up: false, message: `${stopped}; restarting ${this.service.restartingWhat}…` });
    await this.service.stop(this.kept); // what is left of it (a cluster's other nodes): a fresh one replaces it whole
    for (let attempt = 0; !this.closed; attempt++) {
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, restartDelayMs(this.unstable + attempt)).unref();
      });
      if (this.closed) return;
      try {
        const fresh = await this.service.startAgain(this.kept);
        const target = this.service.target(fresh);
        try {
          if (this.closed) return;
          await this.session.retarget(target);
        } finally {
          // Not taken into use (a retarget can fail after the session took the target: then it is kept).
          if (this.closed || this.session.target !== target) await this.service.stop(fresh);
        }
        if (this.closed) return;
        this.kept = fresh;
        this.watch(fresh);
        this.restarts++;
        this.lastRestartAt = Date.now();
        this.session.announce(
          { up: true, message: `restarted at ${clock(new Date())}: ${lowerFirst(stopped)}; this is a fresh, empty ${this.service.freshOne(fresh)}` },
          RESTARTED_NOTE_MS,
        );
        return;
      } catch (error) {
        const next = restartDelayMs(this.unstable + attempt + 1) / 1000;
        this.session.announce({ up: false, message: `${stopped}; restart attempt ${attempt + 1} failed (${(error as Error).message.split('\n')[0]}); trying again in ${next} s` });
      }
    }
  }

  /** Resolves once no restart is under way (for tests). */
  async settled(): Promise<void> {
    while (this.restarting) await this.restarting;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await this.restarting?.catch(() => {});
    await this.service.stop(this.kept);
  }
}

function clock(date: Date): string {
  return date.toTimeString().slice(0, 8);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
