// The backend's standing link to its Redis: one control connection for INFO, set-up and clean-up
// (never for measured commands), plus a health check the live endpoint reports to browsers. When
// Pipescope restarts its private redis-server (private-redis-keeper.ts), the session is pointed at the
// new one (retarget) and says so to whoever listens (announce → onChange), without a PING of its own.
import type { Redis } from 'ioredis';
import type { RedisStatus } from '../../trace/protocol/live-protocol.ts';
import type { RedisInfo } from '../../trace/format/trace-format.ts';
import { describeConnectFailure, openConnection } from './connect-failure.ts';
import { parseInfo } from './info-fields.ts';
import { connect, type RedisTarget } from './redis-target.ts';

/** What the keeper says about the server, shown instead of (down) or beside (up) the health check. */
export interface Announcement {
  up: boolean;
  message: string;
}

export class RedisSession {
  private version = '';
  private announcement: Announcement | undefined;
  private announcementTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(status: RedisStatus) => void>();

  private constructor(
    private currentTarget: RedisTarget,
    private currentControl: Redis,
  ) {}

  static async open(target: RedisTarget): Promise<RedisSession> {
    const control = await openControl(target);
    const session = new RedisSession(target, control);
    await session.readVersion();
    return session;
  }

  /** Where runs go; changes when a restarted private redis-server gets a new pid (or port). */
  get target(): RedisTarget {
    return this.currentTarget;
  }

  get control(): Redis {
    return this.currentControl;
  }

  /** Points the session at a new server (a restarted private redis-server): a new control connection. */
  async retarget(target: RedisTarget): Promise<void> {
    const control = await openControl(target);
    const old = this.currentControl;
    this.currentTarget = target;
    this.currentControl = control;
    old.disconnect();
    await this.readVersion();
  }

  private async readVersion(): Promise<void> {
    this.version = parseInfo(await this.control.info('server')).get('redis_version') ?? 'unknown';
  }

  get info(): RedisInfo {
    return { version: this.version, embedded: this.target.embedded, address: this.target.address };
  }

  /**
   * The keeper's word on the server, told to listeners at once; `forMs`: forgotten after that long (a
   * "restarted" note), otherwise kept until the next announcement (undefined: none).
   */
  announce(announcement: Announcement | undefined, forMs?: number): void {
    clearTimeout(this.announcementTimer);
    this.announcement = announcement;
    if (announcement && forMs !== undefined) {
      this.announcementTimer = setTimeout(() => (this.announcement = undefined), forMs);
      this.announcementTimer.unref();
    }
    const base = { embedded: this.target.embedded, address: this.target.address };
    const status: RedisStatus = announcement?.up === false
      ? { ...base, up: false, message: announcement.message }
      : { ...base, up: true, version: this.version, ...(announcement ? { message: announcement.message } : {}) };
    for (const listener of this.listeners) listener(status);
  }

  /** Calls `listener` with each announced status; returns the way to stop. */
  onChange(listener: (status: RedisStatus) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** While the keeper restarts the server: why it is down (runs fail with this as their reason). */
  get downReason(): string | undefined {
    return this.announcement?.up === false ? this.announcement.message : undefined;
  }

  async status(): Promise<RedisStatus> {
    const base = { embedded: this.target.embedded, address: this.target.address };
    const announcement = this.announcement;
    if (announcement?.up === false) return { ...base, up: false, message: announcement.message };
    try {
      await this.control.ping();
      if (!this.version) await this.readVersion();
      return { ...base, up: true, version: this.version, ...(announcement ? { message: announcement.message } : {}) };
    } catch (error) {
      const cause = describeConnectFailure(this.control, error, this.target).message;
      return { ...base, up: false, message: `Redis at ${this.target.address} is unreachable: ${cause}` };
    }
  }

  async close(): Promise<void> {
    clearTimeout(this.announcementTimer);
    this.listeners.clear();
    this.control.disconnect();
  }
}

/** The control connection reconnects by itself (a Redis restarted, a network blip); a run's never does. */
async function openControl(target: RedisTarget): Promise<Redis> {
  const control = connect(target, 'pipescope-control', { retryStrategy: (attempt) => Math.min(attempt * 200, 2_000), enableOfflineQueue: false });
  await openConnection(control, target);
  return control;
}
