// One pipeline of 1,000,000 SETs of 268 B against the built backend (defects 5 and 8):
// - memory: the backend's RSS before, at its peak and after (it used to stay at ~2.5 GB);
// - HTTP: the static page timed again and again during the run (it used to stall for seconds);
// - Cancel: from the message to 'cancelled', while the pipeline is built and while its replies arrive;
// - what slicing costs: the same pipeline's time, sliced and in one exec(), interleaved.
// PIPESCOPE_BACKEND_ROOT=<another checkout, built> measures that version with the same test.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBatch } from '../trace/protocol/live-protocol.ts';
import { openRedis, type OpenedRedis } from '../server/redis/open-redis.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import { buildServer, LiveClient, median, rssMb, sleep, startBackend, type Backend } from '../server/test-support/backend-process.ts';
import { figure, HttpProber, observe, requestEnd, RssSampler, runKeys, spread } from './hard-support.ts';
import type { Redis } from 'ioredis';
import { keysLeftAfter } from '../server/test-support/run-keys.ts';

const BIG = { command: 'SET', n: 1_000_000, valueBytes: 268, modes: ['pipeline'] } as const;

let backend: Backend;
let observer: Redis;
let scratch: string;

/** The backend with hard/loop-stalls.mjs loaded: it logs every event-loop stall over 50 ms to `log`. */
function withStallLog(log: string, env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...env, NODE_OPTIONS: `--import=${new URL('./loop-stalls.mjs', import.meta.url).href}`, PIPESCOPE_STALL_LOG: log };
}

/** The stalls (ms) logged between two epoch times. */
function stallsBetween(log: string, from: number, to: number): number[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' ').map(Number) as [number, number])
    .filter(([at]) => at >= from && at <= to).map(([, ms]) => ms);
}

beforeAll(async () => {
  expect(buildServer()).toBe('');
  scratch = mkdtempSync(join(tmpdir(), 'pipescope-hard-big-'));
  backend = await startBackend([], withStallLog(join(scratch, 'stalls-default.log')));
  observer = await observe(backend.redisAddress!);
});

afterAll(async () => {
  observer?.disconnect();
  await backend?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** RSS over `ms`, sampled every 100 ms: the median (one GC or page-in does not decide it). */
async function steadyRss(pid: number, ms = 1_000): Promise<number> {
  const samples: number[] = [];
  for (let t = 0; t < ms; t += 100) {
    samples.push(rssMb(pid));
    await sleep(100);
  }
  return median(samples);
}

/**
 * RSS before, at the peak and after one 1,000,000-SET pipeline, and the static page's latency idle and
 * during the run; `label` names the configuration in the figures.
 */
async function measureBigRun(target: Backend, label: string, stallLog: string): Promise<{ baseline: number; after: number; during: number[]; stalls: number[] }> {
  const pid = target.process.pid!;
  const client = await LiveClient.open(target.wsUrl);
  client.send({ type: 'run', requestId: 'warm', spec: { command: 'SET', n: 1000, valueBytes: 268, modes: ['pipeline'] } });
  expect((await requestEnd(client, 'warm')).message.type).toBe('request-done');
  await sleep(2_000);
  const baseline = await steadyRss(pid);
  const quiet = await new Promise<number[]>((resolve) => {
    const prober = new HttpProber(target.url);
    setTimeout(() => void prober.stop().then(resolve), 2_000);
  });
  const sampler = new RssSampler(pid);
  const prober = new HttpProber(target.url);
  const started = performance.now();
  const startedAt = Date.now();
  client.send({ type: 'run', requestId: 'big', spec: BIG });
  const end = await requestEnd(client, 'big', 600_000);
  const stalls = stallsBetween(stallLog, startedAt, Date.now());
  const during = await prober.stop();
  sampler.stop();
  client.close();
  expect(end.message.type).toBe('request-done');
  const after: number[] = [];
  const ended = performance.now();
  for (const seconds of [1, 3, 10]) {
    await sleep(Math.max(0, seconds * 1000 - (performance.now() - ended)));
    after.push(await steadyRss(pid));
  }
  figure(`backend RSS, 1,000,000-SET pipeline (MB), ${label}`,
    `before ${baseline.toFixed(0)}, peak ${sampler.peak.toFixed(0)}, after +1 s ${after[0]!.toFixed(0)}, +3 s ${after[1]!.toFixed(0)}, +10 s ${after[2]!.toFixed(0)} (run ${((end.at - started) / 1000).toFixed(1)} s)`);
  figure(`static page latency, idle, ${label}`, spread(quiet));
  figure(`static page latency during the 1,000,000-SET pipeline run, ${label}`, spread(during));
  figure(`backend event-loop stalls over 50 ms during the run, ${label}`, stalls.length ? `${stalls.length}, longest ${Math.max(...stalls)} ms` : 'none');
  return { baseline, after: after[2]!, during, stalls };
}

describe('one pipeline of 1,000,000 SETs of 268 B', () => {
  it('memory comes back near its baseline, and HTTP stays responsive during the run', async () => {
    const { baseline, after, during, stalls } = await measureBigRun(backend, 'as started', join(scratch, 'stalls-default.log'));
    expect(await runKeys(observer)).toEqual([]);
    // glibc keeps freed memory in its heap unless its mmap threshold is fixed (next test): here, within
    // 400 MB of where it started (it used to keep all of its ~2.5 GB).
    expect(after).toBeLessThan(baseline + 400);
    // Responsive: half the requests within 100 ms, every one within 2 s (a noisy two-core machine).
    expect(median(during)).toBeLessThan(100);
    expect(Math.max(...during)).toBeLessThan(2_000);
    // The backend's own event loop is never held for long (it was held for the whole build: 7-30 s).
    expect(Math.max(0, ...stalls)).toBeLessThan(1_000);
  });

  it('with MALLOC_MMAP_THRESHOLD_=131072 (glibc returns freed memory), it comes back within 100 MB', async () => {
    const log = join(scratch, 'stalls-tuned.log');
    const tuned = await startBackend([], withStallLog(log, { MALLOC_MMAP_THRESHOLD_: '131072' }));
    try {
      const { baseline, after } = await measureBigRun(tuned, 'MALLOC_MMAP_THRESHOLD_=131072', log);
      expect(after).toBeLessThan(baseline + 100);
    } finally {
      await tuned.stop();
    }
  });

  it('Cancel: while the pipeline is built, and while its replies arrive', async () => {
    const client = await LiveClient.open(backend.wsUrl);
    const building: number[] = [];
    const replying: number[] = [];
    for (let trial = 0; trial < 6; trial++) {
      const requestId = `cancel-${trial}`;
      const whileReplying = trial % 2 === 1;
      client.send({ type: 'run', requestId, spec: BIG });
      // run-start comes right before t0; the first events once the pipeline is written (an empty 50 ms sends none).
      const first = await client.nextAt((m) => m.type === 'run-start' && m.requestId === requestId);
      if (whileReplying) {
        // The first batch with socket reads: the pipeline is written and replies are coming in.
        await client.nextAt((m) => m.type === 'run-events' && m.requestId === requestId && decodeBatch(m).reads.length > 0, first.index, 600_000);
      } else {
        await sleep(200 + trial * 300);
      }
      const sentAt = client.send({ type: 'cancel', requestId });
      const end = await requestEnd(client, requestId);
      expect(end.message.type).toBe('cancelled');
      (whileReplying ? replying : building).push(end.at - sentAt);
      expect(await keysLeftAfter(observer, 30_000)).toEqual([]); // deleted in the background once 'cancelled' is sent
      expect(await observer.ping()).toBe('PONG');
    }
    client.close();
    figure('cancel → cancelled while a 1,000,000-SET pipeline is built', `${building.map((ms) => ms.toFixed(0)).join(', ')} ms (median ${median(building).toFixed(0)} ms)`);
    figure('cancel → cancelled while its replies arrive (keys made so far deleted after, in the background)', `${replying.map((ms) => ms.toFixed(0)).join(', ')} ms (median ${median(replying).toFixed(0)} ms)`);
    for (const ms of building) expect(ms).toBeLessThan(300);
    for (const ms of replying) expect(ms).toBeLessThan(2_000);
  });
});

describe('what slicing costs (in this process, against a private redis-server)', () => {
  let opened: OpenedRedis;
  beforeAll(async () => {
    opened = await openRedis(undefined);
  });
  afterAll(async () => {
    await opened?.close();
  });

  it.each([
    [100_000, 4],
    [1_000_000, 2],
  ])('a pipeline of %i SETs of 268 B, sliced and in one exec(), %i rounds interleaved', async (n, rounds) => {
    const spec = { command: 'SET' as const, n, valueBytes: 268, memory: false };
    const times: Record<'sliced' | 'whole', number[]> = { sliced: [], whole: [] };
    const firstWrite: Record<'sliced' | 'whole', number[]> = { sliced: [], whole: [] };
    for (let round = 0; round < rounds; round++) {
      for (const kind of round % 2 === 0 ? (['sliced', 'whole'] as const) : (['whole', 'sliced'] as const)) {
        const doc = await executeRun(opened.session, 'pipeline', kind === 'sliced' ? spec : { ...spec, pipelineSlice: Infinity });
        expect(doc.counts.client.writes).toBe(1);
        times[kind].push(doc.totals.doneUs / 1000);
        firstWrite[kind].push(doc.writes[0]!.atUs / 1000);
        await sleep(1_500); // the memory release after a big run, before the next t0
      }
    }
    const show = (ms: number[]) => `${ms.map((t) => t.toFixed(0)).join(', ')} ms (median ${median(ms).toFixed(0)})`;
    figure(`${n.toLocaleString('en-US')}-SET pipeline, sliced`, `done at ${show(times.sliced)}; written at ${show(firstWrite.sliced)}`);
    figure(`${n.toLocaleString('en-US')}-SET pipeline, one exec()`, `done at ${show(times.whole)}; written at ${show(firstWrite.whole)}`);
    figure(`${n.toLocaleString('en-US')}-SET pipeline, sliced ÷ one exec() (median time)`, (median(times.sliced) / median(times.whole)).toFixed(2));
  });
});
