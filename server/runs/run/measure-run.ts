// The measured part of a run, from t0 to its last reply: the trace's header announced, the socket
// probe (and the delay proxy's) attached, t0 taken, the driver called in the run's mode, and every
// event handed to the TraceBuilder and to any live listener in batches (every FLUSH_INTERVAL_MS, and
// once at the end, also after a failure or a Cancel, so what was measured is never lost).
import { TraceBuilder, type Outcome, type ProbeBatch, type TraceHeader } from '../../../trace/format/trace-builder.ts';
import type { RedisInfo, Rtt, RunInfo } from '../../../trace/format/trace-format.ts';
import { recorderInfo } from '../../support/recorder-info.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import { ProxyProbe } from '../../probes/proxy-probe.ts';
import { SocketProbe } from '../../probes/socket-probe.ts';
import { RunClock, microsSince } from '../../support/monotonic-clock.ts';
import { RunCancelledError } from '../../support/run-cancelled-error.ts';
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
}

/** How far a run got, kept up to date while it runs: read by the clean-up even when the run failed. */
export interface RunProgress {
  /** Commands handed to the socket: no key beyond these can exist. */
  written: number;
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
  };
  return { run: info, redis, rtt, recorder: recorderInfo(client) };
}

export async function measureRun(
  plan: RunPlan,
  connection: RunConnection,
  probes: RunProbes,
  header: TraceHeader,
  listener: RunListener,
  progress: RunProgress,
  signal: AbortSignal | undefined,
): Promise<Measured> {
  const run = connection.driver!;
  const clock = new RunClock();
  const builder = new TraceBuilder(header);
  listener.onStart?.(header);

  // The raw engine is for looking at bytes: it always keeps them, as server-traced runs do.
  const probe = new SocketProbe(run.socket, clock, plan.probes.monitor || plan.probes.strace || plan.engine.name === 'raw');
  const proxyProbe = connection.proxy && new ProxyProbe(connection.proxy, clock);
  const flush = () => {
    const batch: ProbeBatch = { ...probe.take(), ...proxyProbe?.take() };
    builder.addBatch(batch);
    progress.written = builder.progress.sent;
    listener.onBatch?.(plan.id, batch);
  };
  const record = (outcome: Outcome) => probe.recordOutcome(outcome);
  const held = probes.held;
  held?.arm(probe, clock, plan.wire.n - 1, () => run.ping());
  if (signal?.aborted) throw new RunCancelledError('Run cancelled');
  const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
  probes.sampler?.go();
  let doneUs = 0;
  try {
    const t0 = clock.start();
    await callClient(plan, run, record, () => signal?.aborted === true);
    if (held) record(await held.sameConnectionPing().then(() => ({ reply: 'PONG' })));
    doneUs = microsSince(t0);
  } finally {
    clearInterval(flusher);
    probe.detach();
    proxyProbe?.detach();
    flush();
  }
  return { builder, clock, doneUs };
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
