// The measured part of a run, from t0 to its last reply: the trace's header announced, the socket
// probe (and the delay proxy's) attached, the hot start, t0 taken, the driver called in the run's mode,
// and every event handed to the TraceBuilder and to any live listener in batches (every
// FLUSH_INTERVAL_MS, and once at the end, also after a failure or a Cancel, so what was measured is
// never lost).
//
// The hot start, in order: every probe attached; the first INFO snapshot (read as text, parsed after
// the run); the warm-up's tail through the probes (warmup.ts), right up to t0 with nothing awaited in
// between that would let Redis or the client idle; the tail's socket events dropped (the INFO deltas
// take its exactly known traffic out); MONITOR held (not read) when the run's lines fit the socket's
// buffers; Redis's CPU counter read; t0. Between t0 and the last reply nothing of
// Pipescope's runs on its own but the socket probe's hooks, and a flush every FLUSH_INTERVAL_MS (none in
// a shorter run); a memory sampler only in a memory repeat.
import { TraceBuilder, type Outcome, type ProbeBatch, type TraceHeader } from '../../../trace/format/trace-builder.ts';
import type { RedisInfo, Rtt, RunInfo } from '../../../trace/format/trace-format.ts';
import { recorderInfo } from '../../support/recorder-info.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import { ProxyProbe } from '../../probes/proxy-probe.ts';
import { SocketProbe, type DroppedTraffic } from '../../probes/socket-probe.ts';
import { RunClock, microsSince } from '../../support/monotonic-clock.ts';
import { RunCancelledError } from '../../support/run-cancelled-error.ts';
import type { Redis } from 'ioredis';
import type { Warmup, TailPlan } from '../warmup.ts';
import type { RunConnection } from './run-connection.ts';
import type { RunListener } from './run-listener.ts';
import type { RunPlan } from './run-plan.ts';
import type { RunProbes } from './run-probes.ts';

export const FLUSH_INTERVAL_MS = 50;

export interface Measured {
  builder: TraceBuilder;
  clock: RunClock;
  /** µs from t0 until the client's call returned (totals.doneUs). */
  doneUs: number;
  /** Redis's CPU counter (ns) at t0 and right after the call returned: Pipescope's own redis-server only. */
  schedstat: { beforeNs: bigint; afterNs: bigint } | undefined;
  /** What the warm-up's tail put through the run's socket (dropped from the trace; the kernel's figures hold it). */
  tailTraffic: DroppedTraffic;
  /** The tail's commands Redis refused unrun (see Warmup.tail): not in its INFO counts or MONITOR lines. */
  tailRefused: number;
  /** What the probes cost on the run's thread between t0 and the last reply. */
  inRun: { socket: { inRunUs: number; events: number }; flushes: { inRunUs: number; count: number }; monitorHeld: boolean; monitorUs: number };
}

/** How far a run got, kept up to date while it runs: read by the clean-up even when the run failed. */
export interface RunProgress {
  /** Commands handed to the socket: no key beyond these can exist. */
  written: number;
}

/** The warm-up's tail to send right before t0 (none for a cold run), and MONITOR's bound for the run. */
export interface HotStart {
  warmup: Warmup | undefined;
  tail: TailPlan;
  /** The MONITOR lines the run can make at most (bytes): held only when they fit (monitor-probe.ts). */
  monitorBytes: number;
}

/** What is known of the run before t0: the trace's header (startedAt is now, a moment before t0). */
export function runHeader(plan: RunPlan, redis: RedisInfo, rtt: Rtt, warmup: RunInfo['warmup'], client: string): TraceHeader {
  const { workload, mode } = plan;
  const info: RunInfo = {
    id: plan.id, mode, command: workload.command, n: plan.wire.n, operations: workload.operations, valueBytes: workload.valueBytes,
    startedAt: new Date().toISOString(), keyPattern: workload.commands.keyPattern,
    ...(mode === 'chunked' ? { chunk: workload.chunk } : {}),
    warmup,
    injectedError: workload.injectedError,
    repeat: plan.repeat,
    probes: plan.probes,
    ...(mode === 'chunked' ? { chunkPauseMs: workload.chunkPauseMs } : {}),
    ...(plan.memoryRepeat ? { memoryRepeat: true } : {}),
  };
  return { run: info, redis, rtt, recorder: recorderInfo(client) };
}

export async function measureRun(
  plan: RunPlan,
  connection: RunConnection,
  probes: RunProbes,
  header: TraceHeader,
  hotStart: HotStart,
  control: Redis,
  listener: RunListener,
  progress: RunProgress,
  signal: AbortSignal | undefined,
  /** Called first, before the start message and the first INFO snapshot (run-guard.ts: the lease set to cover the measurement). */
  measuring: () => Promise<void> = async () => {},
): Promise<Measured> {
  await measuring(); // before the start message and the first INFO snapshot
  const run = connection.driver!;
  const clock = new RunClock();
  const builder = new TraceBuilder(header);
  listener.onStart?.(header);

  // The raw engine is for looking at bytes: it always keeps them, as server-traced runs do.
  const probe = new SocketProbe(run.socket, clock, plan.probes.monitor || plan.probes.strace || plan.engine.name === 'raw');
  const proxyProbe = connection.proxy && new ProxyProbe(connection.proxy, clock);
  const { held, tracer, sampler, schedstat } = probes;
  const flushes = { inRunUs: 0, count: 0 };
  let armed = false;
  let running = false;
  const flush = () => {
    if (!armed) return; // not before t0: the warm-up's tail is not the run's
    const started = process.hrtime.bigint();
    const batch: ProbeBatch = { ...probe.take(), ...proxyProbe?.take() };
    if (!isEmpty(batch)) { // a quiet 50 ms (a long round trip): no frame to send
      builder.addBatch(batch);
      progress.written = builder.progress.sent;
      listener.onBatch?.(plan.id, batch);
    }
    if (!running) return;
    tracer?.releaseMonitor(); // the run has lasted a flush interval: others' lines must not pile up longer
    flushes.count++;
    flushes.inRunUs += microsSince(started);
  };
  const record = (outcome: Outcome) => probe.recordOutcome(outcome);
  const cancelled = () => signal?.aborted === true;
  sampler?.go();
  const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
  const monitorHeld = tracer?.holdMonitor(hotStart.monitorBytes) ?? false;
  // The hot start (see the top): from the first INFO snapshot to t0 nothing is awaited but Redis, and
  // after the tail's last reply only what must follow it.
  let tailRefused = 0;
  try {
    await probes.readInfoBefore(control, plan);
    tailRefused = (await hotStart.warmup?.tail(run, hotStart.tail, signal)) ?? 0;
  } catch (error) {
    clearInterval(flusher);
    tracer?.releaseMonitor();
    throw error;
  }
  probe.discard();
  proxyProbe?.take();
  held?.arm(probe, clock, plan.wire.n - 1, () => run.ping());
  if (cancelled()) {
    clearInterval(flusher);
    tracer?.releaseMonitor();
    throw new RunCancelledError('Run cancelled');
  }
  armed = true;
  tracer?.startMonitorTiming();
  const cpuBeforeNs = schedstat?.readNs();
  let doneUs = 0;
  let cpuAfterNs: bigint | undefined;
  try {
    running = true;
    const t0 = clock.start();
    await callClient(plan, run, record, cancelled);
    if (held) record(await held.sameConnectionPing().then(() => ({ reply: 'PONG' })));
    doneUs = microsSince(t0);
    cpuAfterNs = schedstat?.readNs();
  } finally {
    running = false;
    clearInterval(flusher);
    tracer?.releaseMonitor();
    probe.detach();
    proxyProbe?.detach();
    flush();
  }
  return {
    builder,
    clock,
    doneUs,
    tailTraffic: probe.droppedTraffic(),
    tailRefused,
    schedstat: cpuBeforeNs !== undefined && cpuAfterNs !== undefined ? { beforeNs: cpuBeforeNs, afterNs: cpuAfterNs } : undefined,
    inRun: { socket: probe.cost(), flushes, monitorHeld, monitorUs: tracer?.monitorReadingUs() ?? 0 },
  };
}

/** The run itself: the driver called in the run's mode, each outcome recorded in reply order. */
function callClient(plan: RunPlan, run: RunDriver, record: (outcome: Outcome) => void, cancelled: () => boolean): Promise<void> {
  const { commands, operations, wirePlan, dependent, chunk, chunkPauseMs } = plan.workload;
  if (wirePlan) return run.batches(wirePlan, record, cancelled);
  if (plan.mode === 'auto') return run.auto(commands, operations, record, cancelled);
  if (dependent) return run.dependent(commands, operations, record, cancelled);
  if (plan.mode === 'sequential') return run.sequential(commands, operations, record, cancelled);
  return run.pipeline(commands, operations, chunk, record, cancelled, chunkPauseMs);
}

function isEmpty(batch: ProbeBatch): boolean {
  return batch.writes.length === 0 && batch.reads.length === 0 && batch.outcomes.length === 0 && !batch.toServer?.length && !batch.fromServer?.length;
}
