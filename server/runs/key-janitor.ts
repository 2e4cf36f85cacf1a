// Deletes what runs left behind when their process died: keys under `pipescope:<run id>:` whose lease
// (run-lease.ts) has expired or whose owner is known gone. At start-up it walks the whole keyspace once
// (SCAN MATCH pipescope:* in batches, never KEYS, never FLUSH*), which also finds keys of versions that
// had no leases; then every JANITOR_INTERVAL_MS it reads the lease registry (one SMEMBERS, usually of a
// key that does not exist) and walks the keyspace again only when a registered run's lease is gone.
// Every key it deletes matches command-guard.ts RUN_KEY (or is a dead run's lease); a namespace whose
// lease is live (another Pipescope's run, on this Redis) is never touched. It sends nothing while a
// measurement window is open (measurement-window.ts): it waits between its SCAN steps instead.
//
// A cluster (redis/keyspace.ts): leases, the registry and run keys are ordinary keys, each on its own
// slot, so the same rules hold on every node. The walk SCANs each master in turn (a node scans only its
// own keys), and every MGET and UNLINK carries the keys of one slot (a node refuses a command whose keys
// span slots, CROSSSLOT), sent by a cluster client to the node serving that slot; the registry lives on
// the one node its slot maps to.
import type { Keyspace } from '../redis/keyspace.ts';
import { LEASE_PREFIX, LEASE_REGISTRY, SCAN_PATTERN, assertAllowed, assertHousekeeping, namespaceOfKey, runIdOfKey, runIdOfLease } from '../protocol/command-guard.ts';
import { ownerGone } from './run-lease.ts';
import { measuring, outsideMeasurement } from './measurement-window.ts';

/** How often the registry is read (ms): with a lease's TTL, the bound on how long a dead run's keys last. */
export const JANITOR_INTERVAL_MS = 10_000;
/** Keys a SCAN step asks for (its COUNT): a step takes about a millisecond of Redis's time. */
const SCAN_COUNT = 1000;
/** Keys per UNLINK. */
const UNLINK_BATCH = 1000;

export interface JanitorReport {
  /** Keys deleted (run keys and dead leases). */
  deleted: number;
  /** Runs whose keys were deleted. */
  runs: number;
  /** Runs seen with a live lease, left alone. */
  live: number;
}

export class KeyJanitor {
  private timer: NodeJS.Timeout | undefined;
  private working: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private saidFailure = false;

  constructor(
    private readonly keyspace: () => Keyspace,
    private readonly log: (line: string) => void = (line) => console.warn(line),
  ) {}

  /** The start-up walk now, then the registry every JANITOR_INTERVAL_MS. */
  start(): void {
    this.working = this.guarded(() => this.sweep());
    this.timer = setInterval(() => {
      this.working = this.working.then(() => this.guarded(() => this.checkRegistry()));
    }, JANITOR_INTERVAL_MS);
    this.timer.unref();
  }

  /** Stops; resolves once the step under way has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.working;
  }

  /** Resolves once the work under way (the start-up walk, a registry check) has ended. */
  async idle(): Promise<void> {
    await this.working;
  }

  /** The whole keyspace: every run namespace without a live lease goes, and every dead lease. */
  async sweep(only?: ReadonlySet<string>): Promise<JanitorReport> {
    const report: JanitorReport = { deleted: 0, runs: 0, live: 0 };
    const verdicts = new Map<string, boolean>(); // run id → dead
    const deadRuns = new Set<string>();
    let whole = true; // every node's walk reached its end
    for (const node of this.keyspace().scanTargets()) {
      let cursor = '0';
      do {
        await outsideMeasurement();
        if (this.stopped) break;
        assertHousekeeping('SCAN', [cursor, 'MATCH', SCAN_PATTERN, 'COUNT', SCAN_COUNT]);
        const [next, keys] = await node.scan(cursor, 'MATCH', SCAN_PATTERN, 'COUNT', SCAN_COUNT);
        cursor = next;
        const byRun = new Map<string, string[]>();
        for (const key of keys) {
          const runId = runIdOfKey(key) ?? runIdOfLease(key);
          if (runId === null || (only && !only.has(runId))) continue;
          const list = byRun.get(runId);
          if (list) list.push(key);
          else byRun.set(runId, [key]);
        }
        const unknown = [...byRun.keys()].filter((id) => !verdicts.has(id));
        for (const [id, dead] of await this.leaseVerdicts(unknown)) verdicts.set(id, dead);
        const doomed: string[] = [];
        for (const [runId, list] of byRun) {
          if (verdicts.get(runId)) {
            doomed.push(...list);
            deadRuns.add(runId);
          }
        }
        await this.unlink(doomed);
        report.deleted += doomed.length;
      } while (cursor !== '0');
      if (cursor !== '0') whole = false;
    }
    report.runs = deadRuns.size;
    report.live = [...verdicts.values()].filter((dead) => !dead).length;
    // A dead run's registry entry goes once its keys have (a walk cut short by stop() keeps them).
    const registered = whole ? [...verdicts].filter(([, dead]) => dead).map(([id]) => id) : [];
    if (registered.length > 0) await this.unregister(registered);
    if (report.deleted > 0) this.log(`pipescope: deleted ${report.deleted.toLocaleString('en-US')} keys left by ${report.runs} run(s) whose process ended without cleaning up`);
    return report;
  }

  /** The registry: runs whose lease is gone get a walk of the keyspace for their keys, then leave it. */
  async checkRegistry(): Promise<JanitorReport | null> {
    await outsideMeasurement();
    assertHousekeeping('SMEMBERS', [LEASE_REGISTRY]);
    const ids = await this.keyspace().keys.smembers(LEASE_REGISTRY);
    const dead = [...(await this.leaseVerdicts(ids))].filter(([, isDead]) => isDead).map(([id]) => id);
    if (dead.length === 0) return null;
    const report = await this.sweep(new Set(dead));
    await this.unregister(dead); // also those whose keys were all gone already
    return report;
  }

  /** For each run id: true when its lease is gone (expired or deleted) or its owner is known dead. */
  private async leaseVerdicts(ids: readonly string[]): Promise<Map<string, boolean>> {
    const verdicts = new Map<string, boolean>();
    for (let from = 0; from < ids.length; from += UNLINK_BATCH) {
      const batch = ids.slice(from, from + UNLINK_BATCH);
      const keyspace = this.keyspace();
      // One MGET per slot on a cluster (leases of different runs hash to different slots).
      for (const keys of keyspace.groups(batch.map((id) => `${LEASE_PREFIX}${id}`))) {
        assertHousekeeping('MGET', keys);
        const owners = await keyspace.keys.mget(...keys);
        keys.forEach((key, i) => verdicts.set(key.slice(LEASE_PREFIX.length), owners[i] === null || owners[i] === undefined || ownerGone(owners[i]!)));
      }
    }
    return verdicts;
  }

  private async unlink(keys: readonly string[]): Promise<void> {
    for (let from = 0; from < keys.length; from += UNLINK_BATCH) {
      const batch = keys.slice(from, from + UNLINK_BATCH);
      assertHousekeeping('UNLINK', batch);
      // Each run key is also checked as its own run's would be (its namespace, UNLINK).
      for (const key of batch) {
        const namespace = namespaceOfKey(key);
        if (namespace) assertAllowed(namespace, 'UNLINK', [key]);
      }
      const keyspace = this.keyspace();
      for (const group of keyspace.groups(batch)) await keyspace.keys.unlink(...group);
      if (measuring()) await outsideMeasurement();
    }
  }

  private async unregister(ids: readonly string[]): Promise<void> {
    for (let from = 0; from < ids.length; from += UNLINK_BATCH) {
      const batch = ids.slice(from, from + UNLINK_BATCH);
      assertHousekeeping('SREM', [LEASE_REGISTRY, ...batch]);
      await this.keyspace().keys.srem(LEASE_REGISTRY, ...batch);
    }
  }

  /** One step of work; a failure (Redis down, an ACL without SCAN) is said once and retried next time. */
  private async guarded(work: () => Promise<unknown>): Promise<void> {
    if (this.stopped) return;
    try {
      await work();
      this.saidFailure = false;
    } catch (error) {
      if (!this.saidFailure) this.log(`pipescope: the key janitor could not look for leftover run keys: ${(error as Error).message}`);
      this.saidFailure = true;
    }
  }
}
