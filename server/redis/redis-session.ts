// The backend's standing link to its Redis: one control connection for INFO, set-up and clean-up
// (never for measured commands), plus a health check the live endpoint reports to browsers.
import type { Redis } from 'ioredis';
import type { RedisStatus } from '../../trace/live-protocol.ts';
import type { RedisInfo } from '../../trace/trace-format.ts';
import { describeConnectFailure, openConnection } from './connect-failure.ts';
import { parseInfo } from './info-fields.ts';
import { connect, type RedisTarget } from './redis-target.ts';

export class RedisSession {
  private version = '';

  private constructor(
    readonly target: RedisTarget,
    readonly control: Redis,
  ) {}

  static async open(target: RedisTarget): Promise<RedisSession> {
    const control = connect(target, 'pipescope-control', { retryStrategy: (attempt) => Math.min(attempt * 200, 2_000), enableOfflineQueue: false });
    const session = new RedisSession(target, control);
    await openConnection(control, target); // on failure: closed (it would keep retrying) and explained
    await session.readVersion();
    return session;
  }

  private async readVersion(): Promise<void> {
    this.version = parseInfo(await this.control.info('server')).get('redis_version') ?? 'unknown';
  }

  get info(): RedisInfo {
    return { version: this.version, embedded: this.target.embedded, address: this.target.address };
  }

  async status(): Promise<RedisStatus> {
    const base = { embedded: this.target.embedded, address: this.target.address };
    try {
      await this.control.ping();
      if (!this.version) await this.readVersion();
      return { ...base, up: true, version: this.version };
    } catch (error) {
      const cause = describeConnectFailure(this.control, error, this.target).message;
      return { ...base, up: false, message: `Redis at ${this.target.address} is unreachable: ${cause}` };
    }
  }

  async close(): Promise<void> {
    this.control.disconnect();
  }
}
