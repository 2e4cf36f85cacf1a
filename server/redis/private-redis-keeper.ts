// Keeps Pipescope's private redis-server running. If it ends without being asked (killed, crashed, out
// of memory), it is started again, on its old port if it is still free (else on a new one), and the
// session is pointed at it; browsers are told twice through the session (redis-status): down with the
// reason while it restarts, then up with "restarted …". Attempts back off: 0.1 s, 0.2 s, 0.4 s … up to
// 10 s apart, and a server that dies again within a minute of a restart starts further up that scale,
// so a redis-server that cannot stay up does not spin.
import { startPrivateRedis, type PrivateRedis } from './private-redis-server.ts';
import type { RedisSession } from './redis-session.ts';
import { targetFromUrl, type RedisTarget } from './redis-target.ts';

export const FIRST_RESTART_DELAY_MS = 100;
export const MAX_RESTART_DELAY_MS = 10_000;
/** A server that stayed up this long after a restart starts the scale again from the first delay. */
const STABLE_AFTER_MS = 60_000;
/** How long browsers see the "restarted" note (while up). */
const RESTARTED_NOTE_MS = 60_000;

export function privateTarget(server: PrivateRedis): RedisTarget {
  return { ...targetFromUrl(`redis://${server.host}:${server.port}`, true), pid: server.pid };
}

export function restartDelayMs(attempt: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.min(attempt, 16));
}

export class PrivateRedisKeeper {
  private closed = false;
  private restarting: Promise<void> | undefined;
  /** Ends the wait before the next attempt (close() does not wait out a backoff). */
  private wake: () => void = () => {};
  private lastRestartAt = 0;
  /** Restarts in a row that did not stay up STABLE_AFTER_MS: where the backoff scale starts. */
  private unstable = 0;
  /** How many times the server was restarted (for tests and the description). */
  restarts = 0;

  constructor(
    private server: PrivateRedis,
    private readonly session: RedisSession,
  ) {
    this.watch(server);
  }

  get current(): PrivateRedis {
    return this.server;
  }

  private watch(server: PrivateRedis): void {
    server.onUnexpectedExit((how, lastLine) => {
      if (this.closed || server !== this.server) return;
      this.restarting = this.restart(how, lastLine).finally(() => (this.restarting = undefined));
    });
  }

  private async restart(how: string, lastLine: string): Promise<void> {
    const stoppedAt = new Date();
    // A server killed by a signal printed nothing about it; one that exited may have said why.
    const why = how.startsWith('killed') || !lastLine ? how : `${how}: ${lastLine.replace(LOG_PREFIX, '')}`;
    const stopped = `The private redis-server stopped at ${clock(stoppedAt)} (${why})`;
    this.unstable = Date.now() - this.lastRestartAt < STABLE_AFTER_MS ? this.unstable + 1 : 0;
    this.session.announce({ up: false, message: `${stopped}; restarting it…` });
    for (let attempt = 0; !this.closed; attempt++) {
      const delay = restartDelayMs(this.unstable + attempt);
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        setTimeout(resolve, delay).unref();
      });
      if (this.closed) return;
      try {
        const server = await this.startAgain();
        try {
          if (this.closed) return;
          await this.session.retarget(privateTarget(server));
        } finally {
          if (this.closed || this.session.target.pid !== server.pid) await server.stop(); // not taken into use
        }
        if (this.closed) return;
        this.server = server;
        this.watch(server);
        this.restarts++;
        this.lastRestartAt = Date.now();
        this.session.announce(
          { up: true, message: `restarted at ${clock(new Date())}: ${stopped.replace('The private', 'the private')}; this is a fresh, empty one (pid ${server.pid})` },
          RESTARTED_NOTE_MS,
        );
        return;
      } catch (error) {
        const next = restartDelayMs(this.unstable + attempt + 1) / 1000;
        this.session.announce({ up: false, message: `${stopped}; restart attempt ${attempt + 1} failed (${(error as Error).message.split('\n')[0]}); trying again in ${next} s` });
      }
    }
  }

  /** On the old port if it is free (the URL browsers were shown stays true), else on any free port. */
  private async startAgain(): Promise<PrivateRedis> {
    try {
      return await startPrivateRedis({ host: this.server.host, port: this.server.port });
    } catch {
      return startPrivateRedis({ host: this.server.host });
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
    await this.server.stop();
  }
}

/** "12345:M 23 Nov 2026 13:16:41.777 # " before each line redis-server logs. */
const LOG_PREFIX = /^\d+:[A-Z] \d+ \w+ \d+ [\d:.]+ [#*.-] /;

function clock(date: Date): string {
  return date.toTimeString().slice(0, 8);
}
