// Other clients beside a run, against a real redis-server: a neighbour client on its own connection (a worker
// thread) runs between a plain pipeline's commands in MONITOR order; its commands are timed on the run's
// clock; its key is deleted after; a PING on the run's own connection waits behind the whole pipeline
// while one on a second connection does not; a Cancel stops the neighbour. Figures are printed, not
// asserted tightly: the machine is shared and timings are noisy.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heldConnectionVerdict, neighborInsideRun, neighborLatency } from '../../trace/derive/neighbor-verdicts.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { executeRun } from './run-executor.ts';
import { NEIGHBOR_WARM_MS, NeighborClient } from '../probes/neighbor-client.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { backgroundSettled } from './background-work.ts';

const context = usePrivateRedisSession();
let observer: Redis;

beforeAll(() => {
  observer = new Redis({ host: context.redis.host, port: context.redis.port });
});
afterAll(() => observer?.disconnect());

describe('a neighbour at a rate no timer can wait for', () => {
  it('is warm within its baseline time and stops at once (it used to hang the run before t0, warning ~860 times a second)', async () => {
    // The schema refuses such a rate (run-request.ts MIN_NEIGHBOR_RATE); the worker copes with it anyway.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const target = targetFromUrl(`redis://${context.redis.host}:${context.redis.port}`);
    const neighbor = await NeighborClient.connect(target, 'pipescope-neighbor-test', { command: 'INCR', ratePerSec: 1e-9, valueBytes: 0, key: 'pipescope:abcdefgh-00000000:neighbor' });
    try {
      const started = performance.now();
      await neighbor.go();
      expect(performance.now() - started).toBeLessThan(NEIGHBOR_WARM_MS + 1_500);
      const record = await neighbor.stop(process.hrtime.bigint());
      expect(record.commands).toHaveLength(1); // the first command goes at once; the next is due in ~32 years
    } finally {
      await neighbor.close();
      process.off('warning', onWarning);
      await observer.unlink('pipescope:abcdefgh-00000000:neighbor');
    }
    expect(warnings.filter((name) => name === 'TimeoutOverflowWarning')).toEqual([]);
  }, 20_000);
});

describe('a neighbour client beside the run', () => {
  it('runs between a plain pipeline\'s commands (MONITOR order), timed on the run\'s clock, its key deleted after', async () => {
    const doc = await executeRun(context.session, 'pipeline', { command: 'INCR', n: 100_000, valueBytes: 0, monitor: true, memory: false, neighborRate: 2_000, neighborCommand: 'INCR' });
    const neighbor = doc.neighbor!;
    expect(neighbor).not.toBeNull();
    expect(neighbor.address).toMatch(/:\d+$/);
    const before = neighbor.commands.filter((c) => c.sentUs < 0).length;
    expect(before).toBeGreaterThan(0); // it was already running at t0
    for (const c of neighbor.commands) expect(c.repliedUs).toBeGreaterThanOrEqual(c.sentUs);
    for (let i = 1; i < neighbor.commands.length; i++) expect(neighbor.commands[i]!.sentUs).toBeGreaterThanOrEqual(neighbor.commands[i - 1]!.repliedUs);
    expect(neighbor.commands.at(-1)!.repliedUs).toBeLessThan(doc.totals.durationUs + 5_000_000);
    const inside = neighborInsideRun(doc)!;
    console.log(`neighbour: ${neighbor.commands.length} INCRs (${before} before t0); ${inside.inside} ran inside the 100,000-INCR pipeline (${(doc.totals.durationUs / 1000).toFixed(1)} ms)`);
    expect(inside.inside).toBeGreaterThanOrEqual(1);
    expect(doc.counts.server.exclusive).toBe(false);
    expect(await observer.keys('pipescope:*')).toEqual([]);
  }, 60_000);

  it('GET neighbour: reads a value of valueBytes, deleted after', async () => {
    const doc = await executeRun(context.session, 'pipeline', { command: 'SET', n: 20_000, valueBytes: 1024, memory: false, neighborRate: 1_000, neighborCommand: 'GET' });
    expect(doc.neighbor!.command).toBe('GET');
    expect(doc.neighbor!.valueBytes).toBe(1024);
    expect(doc.neighbor!.commands.every((c) => c.error === undefined)).toBe(true);
    expect(await observer.keys('pipescope:*')).toEqual([]);
  }, 60_000);

  it('a reader beside one big pipelined write against small batches with a pause (Tencent): p99 printed for each', async () => {
    const common = { command: 'SET', n: 20_000, valueBytes: 1024, memory: false, neighborRate: 2_000, neighborCommand: 'GET' } as const;
    const big = await executeRun(context.session, 'pipeline', common);
    const small = await executeRun(context.session, 'chunked', { ...common, chunk: 1_000, chunkPauseMs: 2 });
    for (const [name, doc] of [['one pipeline of 20,000 SETs of 1 KiB', big], ['chunks of 1,000 with 2 ms pauses', small]] as const) {
      const latency = neighborLatency(doc)!;
      console.log(`${name}: writer ${(doc.totals.durationUs / 1000).toFixed(1)} ms; reader (GET at 2,000/s) during: ${latency.during.count} GETs, ` +
        `p50 ${latency.during.p50Us} µs, p99 ${latency.during.p99Us} µs, max ${latency.during.maxUs} µs; before: p99 ${latency.before.p99Us} µs`);
      expect(latency.during.count).toBeGreaterThan(0);
      expect(latency.errors).toBe(0);
    }
  }, 120_000);

  it('a Cancel during a neighbour run stops the worker and deletes its key', async () => {
    const controller = new AbortController();
    const started = executeRun(context.session, 'chunked', { command: 'INCR', n: 200_000, chunk: 100, valueBytes: 0, memory: false, neighborRate: 1_000 }, {
      onBatch: () => controller.abort(),
    }, controller.signal);
    await expect(started).rejects.toBeInstanceOf(RunCancelledError);
    // The Cancel is answered at once; the worker is ended in the run's clean-up right after, and Redis
    // notices its closed socket a moment later.
    await backgroundSettled();
    let clients = '';
    for (let i = 0; i < 100 && /name=pipescope-neighbor-/.test((clients = String(await observer.call('CLIENT', 'LIST')))); i++) await new Promise((r) => setTimeout(r, 10));
    expect(clients).not.toMatch(/name=pipescope-neighbor-/);
    expect(await observer.keys('pipescope:*')).toEqual([]);
  }, 60_000);
});

describe('the held-connection probe', () => {
  for (const engine of ['ioredis', 'raw'] as const) {
    it(`${engine}: the PING on the run's connection replies after the pipeline's last reply, the other one before`, async () => {
      const n = 50_000;
      const doc = await executeRun(context.session, 'pipeline', { command: 'INCR', n, valueBytes: 0, engine, monitor: true, memory: false, heldConnection: true });
      expect(doc.run.n).toBe(n + 1);
      expect(doc.run.operations).toBe(n);
      const ping = doc.commands[n]!;
      expect('reply' in ping && ping.reply).toBe('PONG');
      const held = doc.heldConnection!;
      const lastWork = doc.commands[n - 1]!.repliedUs;
      expect(held.sameConnectionRepliedUs).toBeGreaterThanOrEqual(lastWork);
      expect(held.otherConnectionRepliedUs).toBeLessThan(lastWork);
      expect(held.issuedUs).toBeLessThanOrEqual(held.otherConnectionRepliedUs);
      // The second connection's PING ran during the pipeline: MONITOR shows it, named as Pipescope's own.
      const pings = doc.serverTrace!.others.filter((o) => o.command === 'ping');
      expect(pings.map((o) => o.source)).toEqual([expect.stringMatching(/ \(Pipescope held-connection probe\)$/)]);
      const verdict = heldConnectionVerdict(doc)!;
      console.log(`held connection (${engine}, ${n} INCRs): issued at ${held.issuedUs} µs; same connection waited ${verdict.sameWaitUs} µs, ` +
        `other connection ${verdict.otherWaitUs} µs; pipeline's last reply at ${lastWork} µs`);
      expect(await observer.keys('pipescope:*')).toEqual([]);
    }, 60_000);
  }

  for (const engine of ['ioredis', 'raw'] as const) {
    it(`${engine}, MULTI/EXEC under MONITOR: the PING follows EXEC on the wire and waits for the transaction`, async () => {
      const doc = await executeRun(context.session, 'multi', { command: 'INCR', n: 1_000, valueBytes: 0, engine, monitor: true, memory: false, heldConnection: true });
      expect(doc.run.n).toBe(1_003);
      expect(doc.commands[1_002]!.serverUs).toBeGreaterThan(doc.commands[1_001]!.serverUs!); // PING after EXEC on Redis
      expect(doc.heldConnection!.sameConnectionRepliedUs).toBeGreaterThanOrEqual(doc.commands[1_001]!.repliedUs);
    }, 60_000);
  }

  it('through the delay proxy: the other connection takes the same added RTT (its own proxy)', async () => {
    const doc = await executeRun(context.session, 'pipeline', { command: 'PING', n: 1_000, valueBytes: 0, rttMs: 10, memory: false, heldConnection: true });
    const held = heldConnectionVerdict(doc)!;
    console.log(`held connection at 10 ms added RTT: same connection ${held.sameWaitUs} µs, other connection ${held.otherWaitUs} µs`);
    expect(held.otherWaitUs).toBeGreaterThanOrEqual(9_000);
    expect(doc.proxy!.toServer.reduce((sum, w) => sum + w.commands, 0)).toBe(1_001); // the run's proxy saw only the run
  }, 60_000);

  it('chunked: the PING goes after the last chunk, still the last wire command', async () => {
    const doc = await executeRun(context.session, 'chunked', { command: 'PING', n: 2_000, chunk: 500, valueBytes: 0, memory: false, heldConnection: true });
    expect(doc.run.n).toBe(2_001);
    expect(doc.heldConnection!.issuedUs).toBeGreaterThanOrEqual(doc.commands[1_999]!.sentUs);
  }, 60_000);
});

// The multi and eval modes come from branch `modes`, merged into this one.
describe('never inside MULTI/EXEC or a Lua call', () => {
  for (const mode of ['multi', 'eval'] as const) {
    it(`${mode}: no neighbour command between the run's first and last execution`, async () => {
      // EVAL: 100,000 INCRs in one script, long enough for the neighbour to try to run during it.
      const doc = await executeRun(context.session, mode, { command: 'INCR', n: mode === 'eval' ? 100_000 : 20_000, valueBytes: 0, monitor: true, memory: false, neighborRate: 2_000 });
      const inside = neighborInsideRun(doc)!;
      const during = doc.serverTrace!.others.filter((line) => line.source === doc.neighbor!.address).length;
      const slowest = Math.max(...doc.neighbor!.commands.map((c) => c.repliedUs - c.sentUs));
      console.log(`${mode}: ${inside.inside} of the neighbour's commands inside the run's window (${inside.toUs - inside.fromUs} µs); ` +
        `${during} of its commands ran during the run (MONITOR); its slowest took ${slowest} µs`);
      expect(inside.inside).toBe(0);
      // MULTI/EXEC: the neighbour ran between the queued commands' arrival and EXEC. EVAL: it waited for
      // the script (Redis runs nothing else meanwhile), so one of its commands took a good part of it.
      if (mode === 'multi') expect(during).toBeGreaterThan(0);
      else expect(slowest).toBeGreaterThan((inside.toUs - inside.fromUs) / 4);
    }, 60_000);
  }
});
