// Truthful small runs, on a real redis-server: the default form (10 × INCR, sequential and one
// pipeline) runs with nothing of Pipescope's own firing between t0 and its last reply (no timer, no
// worker message, nothing sent to Redis), MONITOR does not hold a reply back, the hot start leaves the
// first round trip close to the others, and Redis's CPU time is recorded on every run.
import { createHook } from 'node:async_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRoundTrip } from '../../trace/derive/first-round-trip.ts';
import { RunSpecSchema, memorySampled } from '../../trace/format/run-request.ts';
import type { RunMode, TraceDocument } from '../../trace/format/trace-format.ts';
import { MonitorProbe } from '../probes/monitor-probe.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { FLUSH_INTERVAL_MS, executeRun, type RunEnd } from './run-executor.ts';

const local = usePrivateRedisSession();

/** What the page sends for its default form; the request leaves memory sampling off for it. */
const DEFAULT_FORM = RunSpecSchema.parse({ command: 'INCR', n: 10, valueBytes: 0, modes: ['sequential', 'pipeline'] });
const defaultRun = (mode: RunMode, listener = {}) =>
  executeRun(local.session, mode, { ...DEFAULT_FORM, memory: memorySampled(DEFAULT_FORM) }, listener);

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('nothing of Pipescope fires inside a small run', () => {
  // Every callback the event loop runs for a timer, an immediate or a message from another thread (a
  // worker's MessagePort), with when it ran: async_hooks' `before`, for the kinds created as such.
  // And every thread a run starts (a Worker: the memory sampler's, the neighbour's), when it is created.
  const kinds = new Map<number, string>();
  const fired: { kind: string; atNs: bigint }[] = [];
  let workers = 0;
  const WATCHED = new Set(['Timeout', 'Immediate', 'MESSAGEPORT']);
  const hook = createHook({
    init: (id, type) => {
      if (WATCHED.has(type)) kinds.set(id, type);
      if (type === 'WORKER') workers++;
    },
    before: (id) => {
      const kind = kinds.get(id);
      if (kind) fired.push({ kind, atNs: process.hrtime.bigint() });
    },
  });
  beforeAll(() => void hook.enable());
  afterAll(() => void hook.disable());

  /** What the hook saw between the run's t0 and its last reply, and the threads the run started. */
  async function firedDuring(run: (listener: { onEnd: (id: string, end: RunEnd) => void }) => Promise<TraceDocument>): Promise<{ doc: TraceDocument; during: typeof fired; threads: number }> {
    let end: RunEnd | undefined;
    fired.length = 0;
    const workersBefore = workers;
    const doc = await run({ onEnd: (_id, e) => (end = e) });
    const from = end!.t0Ns;
    const to = from + BigInt(Math.round(doc.totals.durationUs * 1000));
    return { doc, during: fired.filter((f) => f.atNs >= from && f.atNs <= to), threads: workers - workersBefore };
  }

  it('the hook sees what a memory repeat runs: the sampler\'s thread, and its timer inside the run', async () => {
    await new Promise((resolve) => setImmediate(resolve));
    expect(fired.map((f) => f.kind)).toContain('Immediate'); // the hook itself works
    const { doc, during, threads } = await firedDuring((listener) => executeRun(local.session, 'sequential', { command: 'INCR', n: 3000, valueBytes: 0, memory: true }, listener));
    expect(doc.totals.durationUs).toBeGreaterThan(30_000);
    expect(threads).toBe(1); // the sampler's worker, asking Redis every 10 ms on its own thread
    expect(during.map((f) => f.kind)).toContain('Timeout'); // the client heap, read on the run's thread every 10 ms
  });

  it('the default form: memory off, no thread started, no timer, immediate or worker message between t0 and the last reply', async () => {
    expect(memorySampled(DEFAULT_FORM)).toBe(false);
    let checked = 0;
    for (let round = 0; round < 5; round++) {
      for (const mode of ['sequential', 'pipeline'] as const) {
        const { doc, during, threads } = await firedDuring((listener) => defaultRun(mode, listener));
        expect(threads).toBe(0);
        // A run that lasts a flush interval (a loaded machine can stretch ten INCRs that far) may flush once.
        if (doc.totals.durationUs < FLUSH_INTERVAL_MS * 1000) {
          expect(during).toEqual([]);
          checked++;
        }
        expect(doc.counts.server).toMatchObject({ exclusive: true, reads: mode === 'sequential' ? 10 : 1, writes: mode === 'sequential' ? 10 : 1 });
        expect(doc.run.probes).toMatchObject({ memory: false, kernelTcp: true, monitor: false, strace: false });
        // The probes that ran, and what they cost the run: the socket probe's hooks, no flush inside it.
        expect(doc.probeCosts).toMatchObject({ socket: { events: doc.counts.client.writes + doc.counts.client.reads }, flushes: { count: 0, inRunUs: 0 } });
        expect(doc.probeCosts!.memory).toBeUndefined();
        expect(doc.probeCosts!.kernelTcp!.setupUs).toBeGreaterThan(0);
      }
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('MONITOR sees nothing reach Redis between the run\'s first and last command but the run, and INFO counts exactly the run', async () => {
    const monitor = await MonitorProbe.start(local.session.target);
    try {
      for (const mode of ['sequential', 'pipeline'] as const) {
        const doc = await defaultRun(mode);
        const key = doc.run.keyPattern;
        const isRun = (args: string[]) => args[0]?.toUpperCase() === 'INCR' && args[1] === key;
        await expect.poll(() => monitor.lines.filter((l) => isRun(l.args)).length).toBe(10);
        const lines = monitor.lines.splice(0);
        const first = lines.findIndex((l) => isRun(l.args));
        const last = lines.length - 1 - [...lines].reverse().findIndex((l) => isRun(l.args));
        expect(lines.slice(first, last + 1).map((l) => `${l.args[0]!.toUpperCase()} ${l.args.slice(1).join(' ')}`)).toEqual(Array<string>(10).fill(`INCR ${key}`));
        // The INFO deltas hold the run's ten commands and nothing else (the warm-up's tail taken out exactly);
        // Redis's writes include those to this test's MONITOR connection.
        expect(doc.counts.server).toMatchObject({ exclusive: true, reads: mode === 'sequential' ? 10 : 1 });
      }
    } finally {
      monitor.stop();
    }
  });
});

describe('the hot start', () => {
  it('warms up last with the run\'s own twin: the first round trip within a small factor of the rest', async () => {
    const ratios: number[] = [];
    for (let round = 0; round < 9; round++) {
      const doc = await defaultRun('sequential');
      expect(doc.run.warmup).toMatchObject({ commands: 10, tail: { roundTrips: 3, commands: 3 } });
      ratios.push(firstRoundTrip(doc)!.ratio);
    }
    // The bench's goal is 1.5 (npm run bench, first-round-trip); here the bound is 3, for a test that
    // must hold on a loaded machine. Without the hot start it was 8–15 here.
    console.log(`first ÷ steady round trip, sequential 10 × INCR: ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
    expect(median(ratios)).toBeLessThan(3);
  });
});

describe('MONITOR', () => {
  it('held through a small run: no reply waits on it, and its lines are all there after', async () => {
    const steady = (doc: TraceDocument) => median(doc.commands.slice(1).map((c) => c.repliedUs - c.sentUs));
    const ratios: number[] = [];
    const afterExecution: number[] = [];
    for (let pair = 0; pair < 5; pair++) {
      const plain = await executeRun(local.session, 'sequential', { command: 'INCR', n: 20, valueBytes: 0 });
      const traced = await executeRun(local.session, 'sequential', { command: 'INCR', n: 20, valueBytes: 0, monitor: true });
      expect(traced.probeCosts!.monitor).toMatchObject({ heldDuringRun: true, inRunUs: 0, lines: 20 });
      expect(traced.commands.every((c) => c.serverUs !== undefined)).toBe(true);
      const uncertainty = traced.serverTrace!.clock.uncertaintyUs;
      for (const c of traced.commands) {
        expect(c.serverUs!).toBeGreaterThanOrEqual(c.sentUs - uncertainty);
        expect(c.serverUs!).toBeLessThanOrEqual(c.repliedUs + uncertainty);
      }
      ratios.push(steady(traced) / steady(plain));
      afterExecution.push(median(traced.commands.map((c) => c.repliedUs - c.serverUs!)) / steady(plain));
    }
    // From Redis executing a command to its reply's arrival at the client, against a whole round trip of
    // the plain run of the same pair: measured here 0.5–1.0 at a calm minute, up to ~2 in single pairs
    // at load 13 (Redis writes each command's line to MONITOR's socket in the same turn as the reply;
    // nobody reads it until the run is over). The bound, a median of 5 pairs under 1.5: MONITOR never
    // makes a reply wait another round trip. What MONITOR costs a round trip is a bench figure (npm run
    // bench, probe-cost: 1.5–1.6× on main, where MONITOR was read during the run); printed here too.
    console.log(`MONITOR held: execution → reply ÷ a plain round trip ${afterExecution.map((r) => r.toFixed(2)).join(', ')}; round trip ÷ without ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
    expect(median(afterExecution)).toBeLessThan(1.5);
  });

  it('read as it goes when a run\'s lines could outgrow the socket buffers', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'SET', n: 2000, valueBytes: 64, monitor: true });
    expect(doc.probeCosts!.monitor).toMatchObject({ heldDuringRun: false, lines: 2000 });
    expect(doc.commands.every((c) => c.serverUs !== undefined)).toBe(true);
  });
});

describe('Redis CPU per run', () => {
  it('the private redis-server: its main thread\'s time, exact, on every run; ten INCRs one by one cost it more than one pipeline of ten', async () => {
    const cpu: Record<'sequential' | 'pipeline', number[]> = { sequential: [], pipeline: [] };
    for (let round = 0; round < 5; round++) {
      for (const mode of ['sequential', 'pipeline'] as const) {
        const doc = await defaultRun(mode);
        expect(doc.serverCpu).toMatchObject({ source: 'proc-schedstat', totalUs: expect.any(Number) });
        if (doc.serverCpu && 'totalUs' in doc.serverCpu) cpu[mode].push(doc.serverCpu.totalUs);
      }
    }
    // Here 73 µs against 17.5 µs: ten reads, writes and event-loop turns against one each. The kernel's
    // count is CPU time, not waiting, so a loaded machine does not move it much.
    console.log(`Redis CPU, 10 × INCR: sequential ${median(cpu.sequential).toFixed(1)} µs, pipeline ${median(cpu.pipeline).toFixed(1)} µs`);
    expect(median(cpu.pipeline)).toBeGreaterThan(0);
    expect(median(cpu.sequential)).toBeGreaterThan(2 * median(cpu.pipeline));
  });

  it('any other Redis: INFO cpu, only for runs long enough to carry INFO\'s own work', async () => {
    const remote = await RedisSession.open(targetFromUrl(local.session.target.url)); // the same server, as a URL: no pid, not Pipescope's own
    try {
      const short = await executeRun(remote, 'sequential', { command: 'INCR', n: 10, valueBytes: 0 });
      expect(short.serverCpu).toMatchObject({ source: 'redis-info-cpu', unavailable: expect.stringMatching(/under 10 ms/) });
      const long = await executeRun(remote, 'sequential', { command: 'INCR', n: 1000, valueBytes: 0 });
      expect(long.totals.durationUs).toBeGreaterThanOrEqual(10_000);
      expect(long.serverCpu).toMatchObject({ source: 'redis-info-cpu', totalUs: expect.any(Number), userUs: expect.any(Number), systemUs: expect.any(Number) });
    } finally {
      await remote.close();
    }
  });
});
