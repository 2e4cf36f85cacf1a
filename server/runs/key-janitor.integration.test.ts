// Keys that cannot outlive their run, against a real redis-server: the janitor deletes the namespaces
// of runs whose lease has expired, whose owner (on this host) is gone, or that never had one (a version
// before leases), and nothing else — not a live run of another Pipescope, not a user's key that merely
// starts with pipescope:. It waits while a run is between its INFO snapshots. A run's own lease exists
// from before its first key to after its last is deleted, and sends nothing between t0 and the last reply.
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { pipescopeKeys } from '../test-support/run-keys.ts';
import { KeyJanitor } from './key-janitor.ts';
import { RunLease, leaseOwner, processStart } from './run-lease.ts';
import { openMeasurementWindow } from './measurement-window.ts';
import { executeRun } from './run-executor.ts';
import { LEASE_REGISTRY, leaseKeyFor, runIdOfKey } from '../protocol/command-guard.ts';
import { takeLeasedKey } from './leased-key.ts';

const context = usePrivateRedisSession();
let observer: Redis;
const janitor = () => new KeyJanitor(() => context.session.keyspace(), () => {});

beforeAll(() => {
  observer = new Redis({ host: context.redis.host, port: context.redis.port });
});
afterAll(() => observer?.disconnect());
beforeEach(async () => {
  await observer.flushall(); // the test's own private Redis
});

/** n keys in run `id`'s namespace, of the shapes runs write. */
async function plant(id: string, n: number): Promise<void> {
  const pipeline = observer.pipeline();
  for (let i = 0; i < n; i++) pipeline.set(`pipescope:${id}:key:${i}`, 'v');
  pipeline.set(`pipescope:${id}:warmup:key:0`, 'v').set(`pipescope:${id}:neighbor`, '1').set(`pipescope:${id}:counter`, '3');
  await pipeline.exec();
}

/** The pid and start time of a process that has ended. */
async function deadProcess(): Promise<{ pid: number; started: string }> {
  const child = spawn('sleep', ['30']);
  await new Promise((resolve) => setTimeout(resolve, 50));
  const started = processStart(child.pid!)!;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return { pid: child.pid!, started };
}

const USER_KEYS = ['pipescope:not-a-run:1', 'pipescope:config', 'pipescope:abcdefgh-12345678:custom', 'pipescope:abcdefgh-12345678', 'user:1'];

describe('the start-up walk', () => {
  it('deletes dead runs\' keys (no lease, expired lease, owner gone) and keeps live ones and users\' keys', async () => {
    for (const key of USER_KEYS) await observer.set(key, 'precious');
    await plant('lx0aaaaa-0000000a', 2500); // a run from before leases: no lease, not registered
    await plant('lx0bbbbb-0000000b', 10); // its lease expired
    await observer.sadd(LEASE_REGISTRY, 'lx0bbbbb-0000000b');
    await plant('lx0ccccc-0000000c', 10); // another machine's run, under way
    await observer.set('pipescope:lease:lx0ccccc-0000000c', 'elsewhere.example 4242 123', 'PX', 60_000);
    await observer.sadd(LEASE_REGISTRY, 'lx0ccccc-0000000c');
    const dead = await deadProcess(); // a backend on this host, killed: its lease has not run out yet
    await plant('lx0ddddd-0000000d', 10);
    await observer.set('pipescope:lease:lx0ddddd-0000000d', `${hostname()} ${dead.pid} ${dead.started}`, 'PX', 60_000);
    await observer.sadd(LEASE_REGISTRY, 'lx0ddddd-0000000d');
    await plant('lx0eeeee-0000000e', 10); // this very process's run
    await observer.set('pipescope:lease:lx0eeeee-0000000e', leaseOwner(), 'PX', 60_000);

    const report = await janitor().sweep();
    expect(report).toMatchObject({ runs: 3, deleted: 2503 + 13 + 13 + 1 }); // D's lease too
    const left = await pipescopeKeys(observer);
    expect(left.filter((key) => key.includes('lx0ccccc'))).toHaveLength(14); // its 13 keys and its lease
    expect(left.filter((key) => key.includes('lx0eeeee'))).toHaveLength(14);
    expect(left.filter((key) => /lx0(aaaaa|bbbbb|ddddd)/.test(key))).toEqual([]);
    for (const key of USER_KEYS) expect(await observer.get(key)).toBe('precious');
    expect((await observer.smembers(LEASE_REGISTRY)).sort()).toEqual(['lx0ccccc-0000000c']);
  });

  it('waits while a run is between its INFO snapshots', async () => {
    await plant('lx0aaaaa-0000000a', 10);
    const close = openMeasurementWindow();
    const sweeping = janitor().sweep();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await observer.exists('pipescope:lx0aaaaa-0000000a:key:0')).toBe(1);
    close();
    expect((await sweeping).runs).toBe(1);
    expect(await pipescopeKeys(observer)).toEqual([]);
  });
});

describe('what it costs', () => {
  it('walks 200,000 keys not its own in a few hundred SCAN steps of about a millisecond each, touching none', async () => {
    for (let from = 0; from < 200_000; from += 10_000) {
      const pipeline = observer.pipeline();
      for (let i = from; i < from + 10_000; i++) pipeline.set(`user:${i}`, 'v');
      await pipeline.exec();
    }
    await plant('lx0aaaaa-0000000a', 1000);
    await observer.config('RESETSTAT');
    const started = performance.now();
    const report = await janitor().sweep();
    const ms = performance.now() - started;
    const scan = /cmdstat_scan:calls=(\d+),usec=(\d+)/.exec(await observer.info('commandstats'))!;
    console.log(`janitor start-up walk of 201,003 keys: ${ms.toFixed(0)} ms, ${scan[1]} SCAN steps of ${(Number(scan[2]) / Number(scan[1])).toFixed(0)} µs of Redis time each; deleted ${report.deleted}`);
    expect(report.deleted).toBe(1003);
    expect(await observer.dbsize()).toBe(200_000);
  }, 60_000);

  it('a lease costs a run three round trips on the control connection, none of them measured', async () => {
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      const lease = await RunLease.take(context.session.keyspace(), `lx0${String(i).padStart(5, '0')}-0000abcd`);
      await lease.cover(60_000);
      lease.covered();
      await lease.release(true);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`a lease taken, extended and released: median ${times[25]!.toFixed(2)} ms (3 round trips, before t0 and after the last snapshot)`);
    expect(await pipescopeKeys(observer)).toEqual([]);
  });
});

describe('the registry check', () => {
  it('leaves a registered run alone while its lease lives, and deletes its keys once it has run out', async () => {
    await plant('lx0fffff-0000000f', 100);
    await observer.set('pipescope:lease:lx0fffff-0000000f', 'elsewhere.example 1 1', 'PX', 300);
    await observer.sadd(LEASE_REGISTRY, 'lx0fffff-0000000f');
    const j = janitor();
    expect(await j.checkRegistry()).toBeNull();
    expect(await observer.exists('pipescope:lx0fffff-0000000f:key:99')).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await j.checkRegistry()).toMatchObject({ runs: 1, deleted: 103 });
    expect(await pipescopeKeys(observer)).toEqual([]); // the registry, emptied, is gone too
  });
});

describe('a run\'s own lease', () => {
  it('exists from before the run\'s first key until its keys are gone, covering the measurement', async () => {
    let duringRun: { lease: string | null; ttlMs: number; registered: boolean } | undefined;
    let leaseKey = '';
    const doc = await executeRun(context.session, 'pipeline', { command: 'SET', n: 5000, valueBytes: 8, memory: false }, {
      onStart: (header) => {
        leaseKey = `pipescope:lease:${header.run.id}`;
        void Promise.all([observer.get(leaseKey), observer.pttl(leaseKey), observer.sismember(LEASE_REGISTRY, header.run.id)])
          .then(([lease, ttlMs, registered]) => (duringRun = { lease, ttlMs, registered: registered === 1 }));
      },
    });
    expect(doc.commands).toHaveLength(5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(duringRun).toMatchObject({ lease: leaseOwner(), registered: true });
    expect(duringRun!.ttlMs).toBeGreaterThan(60_000); // the measurement's deadline plus the lease's own 30 s
    expect(await pipescopeKeys(observer)).toEqual([]);
  });

  it('is not refreshed between t0 and the last reply: MONITOR sees no command of it in a 6-second run', async () => {
    const doc = await executeRun(context.session, 'sequential', { command: 'PING', n: 12, valueBytes: 0, rttMs: 500, monitor: true, memory: false, cold: true });
    expect(doc.totals.durationUs).toBeGreaterThan(5_000_000); // longer than LEASE_REFRESH_MS
    const others = doc.serverTrace!.others.map((other) => other.command);
    expect(others.filter((command) => /lease|PEXPIRE|SADD|SREM/i.test(command))).toEqual([]);
  }, 30_000);
});

describe('a leased key (the Observe tab\'s real-client runs)', () => {
  it('is a run key under a live lease: a janitor keeps it while held, and nothing is left after release', async () => {
    const leased = await takeLeasedKey(context.session);
    expect(runIdOfKey(leased.key)).not.toBeNull();
    await observer.incr(leased.key); // what redis-py does through the observing port
    await janitor().sweep();
    expect(await observer.get(leased.key)).toBe('1');
    expect(await observer.sismember(LEASE_REGISTRY, runIdOfKey(leased.key)!)).toBe(1);
    await observer.del(leased.key);
    await leased.release(true);
    expect(await pipescopeKeys(observer)).toEqual([]);
  });

  it('outlives no crash: once its lease is gone (its process died), a janitor deletes the key', async () => {
    const leased = await takeLeasedKey(context.session);
    await observer.incr(leased.key);
    const runId = runIdOfKey(leased.key)!;
    // A process killed with -9 refreshes nothing and its lease expires: stop the refresh (release without
    // the key deleted leaves lease and key behind) and expire the lease now instead of waiting its TTL.
    await leased.release(false);
    await observer.del(leaseKeyFor(runId));
    await janitor().sweep();
    expect(await pipescopeKeys(observer)).toEqual([]);
  });
});
