// The backend's standing link to its Redis: one control connection for INFO, set-up and clean-up
// (never for measured commands), plus a health check the live endpoint reports to browsers. When
// Pipescope restarts its private redis-server (private-redis-keeper.ts), the session is pointed at the
// new one (retarget) and says so to whoever listens (announce → onChange), without a PING of its own.
// Every command on the control connection times out (CONTROL_COMMAND_TIMEOUT_MS): a Redis that stops
// answering (SIGSTOP, a stuck network) fails set-up, INFO and clean-up with words, never hangs them.
// A run that finds Redis silent says so here (noteSilence), so the page hears it at once; the next
// PING answered clears it. The session also keeps the RTT last measured to Redis without added delay
// (baseRttUs), which the backend's duration bound estimates with.
// A node of a Redis Cluster is recognised at open (and at retarget): the session then knows the
// cluster's topology and keeps a cluster client for housekeeping (keyspace.ts), so the key janitor
// scans every master and deletes per slot.
import type { Redis } from 'ioredis';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import { DEFAULT_BASE_RTT_US } from '../../trace/format/run-duration.ts';
import type { RedisStatus } from '../../trace/protocol/live-protocol.ts';
import type { RedisInfo } from '../../trace/format/trace-format.ts';
import { describeConnectFailure, openConnection } from './connect-failure.ts';
import { parseInfo } from './info-fields.ts';
import { isClusterNode, readTopology } from './cluster-topology.ts';
import { openClusterKeyspace, singleKeyspace, type Keyspace } from './keyspace.ts';
import { connect, type RedisTarget } from './redis-target.ts';

/** What the keeper says about the server, shown instead of (down) or beside (up) the health check. */
export interface Announcement {
  up: boolean;
  message: string;
}

/** A control command unanswered this long (ms) fails: one command of set-up, INFO or clean-up. */
export const CONTROL_COMMAND_TIMEOUT_MS = 5_000;
/** How many recent RTT measurements the base RTT is the minimum of. */
const BASE_RTT_SAMPLES = 8;
/** The health check's PING, unanswered this long (ms), says Redis is not answering. */
export const STATUS_PING_TIMEOUT_MS = 2_000;

export class RedisSession {
  private version = '';
  private silence: string | undefined;
  private pinging: Promise<RedisStatus> | undefined;
  /**
   * µs: the connection's own RTT to Redis, without added delay, as measured at open and by the latest
   * runs (at most BASE_RTT_SAMPLES): their minimum is the base RTT, so one measurement on a busy
   * moment (5 ms where loopback takes 0.1 ms) does not make every estimate fifty times too long.
   */
  private rttSamples: number[] = [];
  private announcement: Announcement | undefined;
  private announcementTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(status: RedisStatus) => void>();
  /** On a Redis Cluster: its topology as read at open (or retarget), and the housekeeping cluster client. */
  private clusterState: { topology: ClusterTopology; keyspace: Keyspace & { close(): void } } | undefined;

  private constructor(
    private currentTarget: RedisTarget,
    private currentControl: Redis,
  ) {}

  static async open(target: RedisTarget): Promise<RedisSession> {
    const control = await openControl(target);
    const session = new RedisSession(target, control);
    try {
      await session.readVersion();
      await session.readCluster();
      await session.measureBaseRtt();
    } catch (error) {
      control.disconnect();
      session.clusterState?.keyspace.close();
      throw error;
    }
    return session;
  }

  /** A cluster node (INFO cluster): its topology, and a cluster client for housekeeping. */
  private async readCluster(): Promise<void> {
    const before = this.clusterState;
    this.clusterState = undefined;
    before?.keyspace.close();
    if (!(await isClusterNode(this.control))) return;
    const topology = await readTopology(this.control, { tls: this.target.url.startsWith('rediss:') });
    this.clusterState = { topology, keyspace: await openClusterKeyspace(this.target, topology, 'pipescope-housekeeping') };
  }

  /** The cluster's topology when this Redis is a node of a Redis Cluster; undefined for a single Redis. */
  get cluster(): ClusterTopology | undefined {
    return this.clusterState?.topology;
  }

  /** Where housekeeping finds and deletes keys: the control connection, or every master of a cluster (keyspace.ts). */
  keyspace(): Keyspace {
    return this.clusterState?.keyspace ?? singleKeyspace(this.control);
  }

  /** The base RTT (µs) the backend's estimates use: the least of the recent measurements, never below 1 µs. */
  get baseRttUs(): number {
    return this.rttSamples.length === 0 ? DEFAULT_BASE_RTT_US : Math.max(1, Math.min(...this.rttSamples));
  }

  /** A run measured the connection's own RTT (its minimum PING, without added delay). */
  noteBaseRtt(us: number): void {
    if (!Number.isFinite(us) || us <= 0) return;
    this.rttSamples.push(us);
    if (this.rttSamples.length > BASE_RTT_SAMPLES) this.rttSamples.shift();
  }

  /** Five PINGs on the control connection: the fastest is a first measurement, until runs bring more. */
  private async measureBaseRtt(): Promise<void> {
    let fastest = Infinity;
    for (let i = 0; i < 5; i++) {
      const started = process.hrtime.bigint();
      await this.control.ping();
      fastest = Math.min(fastest, Number(process.hrtime.bigint() - started) / 1000);
    }
    this.noteBaseRtt(fastest);
  }

  /**
   * A run found Redis silent (`message` says how), or undefined once it answers again: listeners hear
   * it at once, and status() reports it until a PING is answered.
   */
  noteSilence(message: string | undefined): void {
    if (message === this.silence) return;
    this.silence = message;
    const base = this.statusBase();
    const status: RedisStatus = message ? { ...base, up: false, message } : { ...base, up: true, version: this.version };
    for (const listener of this.listeners) listener(status);
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
    await this.readCluster();
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
    const base = this.statusBase();
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

  /** What every status says of the Redis: private or not, its address, and on a cluster its shape. */
  private statusBase(): Pick<RedisStatus, 'embedded' | 'address' | 'cluster'> {
    const nodes = this.clusterState?.topology.nodes;
    const masters = nodes?.filter((node) => node.role === 'master').length ?? 0;
    return { embedded: this.target.embedded, address: this.target.address, ...(nodes ? { cluster: { masters, replicas: nodes.length - masters } } : {}) };
  }

  /** While the keeper restarts the server: why it is down (runs fail with this as their reason). */
  get downReason(): string | undefined {
    return this.announcement?.up === false ? this.announcement.message : undefined;
  }

  /** The health check: one PING (at most STATUS_PING_TIMEOUT_MS), one at a time however often asked. */
  status(): Promise<RedisStatus> {
    this.pinging ??= this.checkStatus().finally(() => (this.pinging = undefined));
    return this.pinging;
  }

  private async checkStatus(): Promise<RedisStatus> {
    const base = this.statusBase();
    const announcement = this.announcement;
    if (announcement?.up === false) return { ...base, up: false, message: announcement.message };
    let timer: NodeJS.Timeout | undefined;
    const silent = new Promise<'silent'>((resolve) => (timer = setTimeout(() => resolve('silent'), STATUS_PING_TIMEOUT_MS)));
    try {
      const answer = await Promise.race([this.control.ping(), silent]);
      if (answer === 'silent') {
        return { ...base, up: false, message: `Redis at ${this.target.address} is not answering: no reply to PING within ${STATUS_PING_TIMEOUT_MS / 1000} s` };
      }
      this.silence = undefined;
      if (!this.version) await this.readVersion();
      return { ...base, up: true, version: this.version, ...(announcement ? { message: announcement.message } : {}) };
    } catch (error) {
      const cause = describeConnectFailure(this.control, error, this.target).message;
      return { ...base, up: false, message: `Redis at ${this.target.address} is unreachable: ${cause}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /** What a run found, when it found Redis silent and no PING has been answered since; else undefined. */
  get silenceNoted(): string | undefined {
    return this.silence;
  }

  async close(): Promise<void> {
    clearTimeout(this.announcementTimer);
    this.listeners.clear();
    this.control.disconnect();
    this.clusterState?.keyspace.close();
  }
}

/** The control connection reconnects by itself (a Redis restarted, a network blip); a run's never does. */
async function openControl(target: RedisTarget): Promise<Redis> {
  const control = connect(target, 'pipescope-control', {
    retryStrategy: (attempt) => Math.min(attempt * 200, 2_000),
    enableOfflineQueue: false,
    commandTimeout: CONTROL_COMMAND_TIMEOUT_MS,
  });
  await openConnection(control, target);
  return control;
}
