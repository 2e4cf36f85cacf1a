// The depth sweep against a real redis-server: fewer Redis read events per command as the pipeline
// deepens (many commands in one read()), Redis's CPU per command falling with them, and redis-benchmark
// beside it, its key cleaned up.
import { expect, it } from 'vitest';
import { REFERENCE_MIN_RUN_MS, powersOfTwoUpTo, pointClientWritesPerCommand, pointServerCpuPerCommand, pointServerReadsPerCommand, SweepSpecSchema, sweepRunAt } from '../../trace/format/sweep-format.ts';
import { verifySweep } from '../../trace/format/sweep-io.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeSweep, type SweepProgress } from './sweep-executor.ts';
import { redisBenchmarkVersion } from './redis-benchmark.ts';

const local = usePrivateRedisSession();

it('depths 1..64: Redis reads per command fall from 1 at depth 1, never rising with depth', async () => {
  const progress: SweepProgress[] = [];
  const spec = SweepSpecSchema.parse({ command: 'PING', depths: powersOfTwoUpTo(64), perPoint: 1024, repeats: 2, reference: true });
  const doc = await executeSweep(local.session, spec, { onProgress: (p) => progress.push(p) });

  expect(verifySweep(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  expect(doc.points.map((p) => p.depth)).toEqual([1, 2, 4, 8, 16, 32, 64]);
  const reads = doc.points.map((p) => pointServerReadsPerCommand(p, 1024).median);
  expect(reads[0]).toBe(1); // the private Redis has no other clients: one read() per command
  expect(reads[0]!).toBeGreaterThan(reads.at(-1)!);
  for (let i = 1; i < reads.length; i++) expect(reads[i]!).toBeLessThanOrEqual(reads[i - 1]!);
  // The client side: one socket write per pipeline.
  expect(doc.points.map((p) => pointClientWritesPerCommand(p, 1024).median)).toEqual([1, 1 / 2, 1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64]);
  // Redis's CPU per command, from the kernel's count for the private redis-server: a command alone costs
  // Redis its own read(), write() and event-loop turn; at depth 64, 64 commands share them (here 7.9 µs
  // per PING at depth 1, 0.33 µs at depth 64). Measured on every run; depth 64 well below depth 1.
  const cpu = doc.points.map((p) => pointServerCpuPerCommand(p, 1024));
  for (const point of doc.points) for (const run of point.runs) expect(run.serverCpu).toMatchObject({ source: 'proc-schedstat', totalUs: expect.any(Number) });
  console.log(`Redis CPU per command by depth: ${doc.points.map((p, i) => `${p.depth}: ${cpu[i]!.median.toFixed(2)} µs`).join(', ')}`);
  expect(cpu[0]!.median).toBeGreaterThan(2 * cpu.at(-1)!.median);
  for (const point of doc.points) {
    for (const run of point.runs) {
      expect(run.counts.server).toMatchObject({ exclusive: true, source: 'redis-info' });
      // Every command's latency summed up (the CSV's redis-benchmark columns): ordered, and no longer than the run.
      const l = run.latency!;
      expect(l.count).toBe(1024);
      expect([l.minUs <= l.p50Us, l.p50Us <= l.p95Us, l.p95Us <= l.p99Us, l.p99Us <= l.maxUs, l.maxUs <= run.totals.durationUs]).toEqual([true, true, true, true, true]);
    }
  }
  expect(doc.sweep.serverTraced).toBe(false);

  expect(progress.map((p) => p.done)).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
  // The backend runs the sweep in the one order trace/format/sweep-format.ts defines, which the page shows.
  for (const p of progress) expect({ tool: p.tool, depth: p.depth, repeat: p.repeat }).toEqual(sweepRunAt(spec, p.done));
  if (await redisBenchmarkVersion()) {
    expect(doc.reference?.points.map((p) => [p.depth, p.opsPerSec.length])).toEqual([1, 2, 4, 8, 16, 32, 64].map((d) => [d, 2]));
    expect(doc.reference!.points.every((p) => p.opsPerSec.every((ops) => ops > 0))).toBe(true);
    // Its clock is whole milliseconds: each depth ran at least perPoint commands, and long enough to read.
    for (const point of doc.reference!.points) {
      expect(point.commands).toBeGreaterThanOrEqual(1024);
      expect((point.commands! / point.opsPerSec[0]!) * 1000).toBeGreaterThanOrEqual(REFERENCE_MIN_RUN_MS);
      // Redis 7's --csv prints latency columns: kept per repeat, as printed, in order.
      if (Number((await redisBenchmarkVersion())!.split('.')[0]) >= 7) {
        expect(point.latencies).toHaveLength(2);
        for (const l of point.latencies!) expect(l.minMs <= l.p50Ms && l.p50Ms <= l.p95Ms && l.p95Ms <= l.p99Ms && l.p99Ms <= l.maxMs && l.avgMs <= l.maxMs).toBe(true);
      }
    }
  } else {
    expect(doc.referenceMissing).toMatch(/not installed/);
  }
});

it('redis-benchmark SETs stay in the sweep\'s namespace and are deleted', async () => {
  const spec = SweepSpecSchema.parse({ command: 'SET', valueBytes: 32, depths: [1, 10], perPoint: 200, repeats: 1, reference: true });
  const doc = await executeSweep(local.session, spec);
  expect(doc.points).toHaveLength(2);
  expect(await local.session.control.dbsize()).toBe(0);
});

it('a cancelled sweep stops and leaves no keys', async () => {
  const controller = new AbortController();
  const spec = SweepSpecSchema.parse({ command: 'SET', depths: [1, 2, 4], perPoint: 20_000, repeats: 3 });
  const sweep = executeSweep(local.session, spec, { onProgress: () => controller.abort() }, controller.signal);
  await expect(sweep).rejects.toThrow(/cancelled/);
  expect(await local.session.control.dbsize()).toBe(0);
});
