// A run's lease on its keys: the key `pipescope:lease:<run id>` (with a TTL) and then the run id in the
// registry set `pipescope:leases`, both written before the run writes any key of its own. While the
// lease exists the keys under `pipescope:<run id>:` are that run's, whichever Pipescope process on
// whichever machine runs it; once it has expired (the process died: kill -9, a crash, a lost machine)
// any Pipescope's key janitor (key-janitor.ts) deletes them. The lease's value names its owner (host,
// pid and the pid's start time), so a janitor on the same host also knows a dead owner before the TTL
// runs out: a backend restarted after a kill -9 clears its predecessor's keys at once.
//
// What it costs a run: one round trip before set-up (SADD and SET in one pipeline), one PEXPIRE before
// the run's first INFO snapshot, one UNLINK + SREM after its keys are deleted, all on the control
// connection (on a Redis Cluster, each to the node serving its key, through the housekeeping cluster
// client of redis/keyspace.ts: the lease and the registry are ordinary keys, usually on two nodes, so the
// SET and SADD go one after the other there, the lease first). Nothing between t0 and the last reply, nor between the INFO snapshots: the lease is not
// refreshed while a measurement window is open (measurement-window.ts); before the window it is given
// a TTL covering the whole measurement (the run's own deadline, run-guard.ts, plus LEASE_TTL_MS).
// Outside the window it is refreshed every LEASE_REFRESH_MS to LEASE_TTL_MS.
//
// Without SADD, SREM or PEXPIRE in its ACL (an older least-privilege user), a run goes on without a
// lease, as before leases existed: the backend says so once.
import { hostname } from 'node:os';
import { readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';
import { sendInOrder, type Keyspace } from '../redis/keyspace.ts';
import { LEASE_REGISTRY, assertHousekeeping, leaseKeyFor } from '../protocol/command-guard.ts';
import { measuring } from './measurement-window.ts';

/** A lease lives this long unless refreshed (ms): longer than any pause of the backend's event loop outside a measurement. */
export const LEASE_TTL_MS = 30_000;
/** How often a lease is refreshed outside a measurement window (ms). */
export const LEASE_REFRESH_MS = 5_000;

let noLeaseSaid = false;

/** Who holds a lease: this host, this process and the moment it started (a pid can be reused). */
export function leaseOwner(): string {
  return `${hostname()} ${process.pid} ${processStart(process.pid) ?? 0}`;
}

/** The process's start time in clock ticks since boot (/proc/<pid>/stat field 22), or null when unknown or gone. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether a lease's owner is known to be gone: it names this host, and its pid is not running, or runs
 * a process started at another time. A lease of another host is judged by its TTL alone.
 */
export function ownerGone(owner: string): boolean {
  const [host, pidText, started] = owner.split(' ');
  if (host !== hostname() || !pidText || !/^\d+$/.test(pidText)) return false;
  const pid = Number(pidText);
  if (pid === process.pid) return started !== String(processStart(pid) ?? 0);
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = processStart(pid);
  return now !== null && started !== undefined && started !== '0' && now !== started;
}

export class RunLease {
  private timer: NodeJS.Timeout | undefined;
  private released = false;

  private constructor(
    private readonly keyspace: Keyspace | null,
    private readonly key: string,
    readonly runId: string,
  ) {}

  /** The lease for `runId`, registered and set before any key of the run is written. */
  static async take(keyspace: Keyspace, runId: string): Promise<RunLease> {
    const key = leaseKeyFor(runId);
    assertHousekeeping('SADD', [LEASE_REGISTRY, runId]);
    assertHousekeeping('SET', [key, leaseOwner(), 'PX', LEASE_TTL_MS]);
    // The lease first: a janitor that finds the id registered finds its lease too.
    let failed: Error | null | undefined;
    try {
      await sendInOrder(keyspace, [['SET', key, leaseOwner(), 'PX', LEASE_TTL_MS], ['SADD', LEASE_REGISTRY, runId]]);
    } catch (error) {
      failed = error as Error; // Redis unreachable: the run fails by itself, in its own words (run-cleanup.ts)
    }
    if (failed) {
      // Half a lease (SET taken, SADD refused: out of memory, say) is no lease: it goes at once.
      assertHousekeeping('UNLINK', [key]);
      await keyspace.keys.unlink(key).catch(() => {});
      if (/^NOPERM\b/.test(failed.message) && !noLeaseSaid) {
        console.warn(`pipescope: runs go without a lease on their keys (${failed.message}); see docs/security.md for the ACL line`);
        noLeaseSaid = true;
      }
      return new RunLease(null, key, runId);
    }
    const lease = new RunLease(keyspace, key, runId);
    lease.refreshEvery(LEASE_TTL_MS);
    return lease;
  }

  /**
   * Before the run's first INFO snapshot: the lease lasts `measurementMs` more (plus LEASE_TTL_MS) and
   * is left alone until covered() — nothing of ours reaches Redis in between.
   */
  async cover(measurementMs: number): Promise<void> {
    this.stopRefreshing();
    if (!this.keyspace || this.released) return;
    const ms = Math.ceil(measurementMs) + LEASE_TTL_MS;
    assertHousekeeping('PEXPIRE', [this.key, ms]);
    await this.keyspace.keys.pexpire(this.key, ms);
  }

  /** After the run's last INFO snapshot: refreshed again, every LEASE_REFRESH_MS. */
  covered(): void {
    if (!this.released) this.refreshEvery(LEASE_TTL_MS);
  }

  /**
   * The run's keys are gone (`keysGone`): the lease and its registry entry go too. When they could not
   * be deleted, the lease is left to expire and the registry keeps the id: a janitor deletes them then.
   */
  async release(keysGone: boolean): Promise<void> {
    if (this.released) return;
    this.abandon();
    if (!this.keyspace || !keysGone) return;
    assertHousekeeping('UNLINK', [this.key]);
    assertHousekeeping('SREM', [LEASE_REGISTRY, this.runId]);
    await sendInOrder(this.keyspace, [['UNLINK', this.key], ['SREM', LEASE_REGISTRY, this.runId]]);
  }

  /** Stops refreshing: the lease expires at its TTL and the run's keys become a janitor's (a clean-up that never ended). */
  abandon(): void {
    this.released = true;
    this.stopRefreshing();
  }

  private refreshEvery(ttlMs: number): void {
    this.stopRefreshing();
    if (!this.keyspace) return;
    const keys: Redis | Cluster = this.keyspace.keys;
    this.timer = setInterval(() => {
      if (measuring()) return; // another run's window (not this one's: this one's stops the timer)
      assertHousekeeping('PEXPIRE', [this.key, ttlMs]);
      keys.pexpire(this.key, ttlMs).catch(() => {}); // a Redis that does not answer: the lease runs out, as it should
    }, LEASE_REFRESH_MS);
    this.timer.unref();
  }

  private stopRefreshing(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
