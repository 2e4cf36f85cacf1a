// Executes one measured run on its own dedicated connection (a pipeline holds its connection
// exclusively): sequential = one command awaited after another; pipeline = all written at once;
// chunked = pipelines of `chunk`, one after another; by ioredis or by the raw engine (drivers/).
// t0 is the instant the run calls the client for its first command: every set-up step (warm-up,
// probes, samplers and their baselines, the start message, the first INFO snapshot, GC) comes before.
// A Cancel (the signal) aborts the driver at once: its socket is destroyed, nothing more reaches
// Redis; then, as after any run, the probes stop and the run's keys are deleted (run-cleanup.ts).
// After a big run the backend gives its memory back once idle (support/garbage-collection.ts).
//
// The run's jobs, one file each under run/: run-plan.ts (what will run, checked by the command guard),
// run-connection.ts (the delay proxy and the run's connection), run-probes.ts (everything else opened
// to watch it, and the readings before), measure-run.ts (t0 to the last reply), collect-run.ts (what
// is measured after it). This file puts them in order and cleans up whatever happened. run-guard.ts
// wraps each run: its lease on its keys, a watchdog for a Redis that stops answering, a stopped run
// answering at once.
import type { TraceDocument, RunMode } from '../../trace/format/trace-format.ts';
import { warmupCommands } from '../../trace/format/run-request.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import type { RunDriver } from '../drivers/run-driver.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { collectGarbage, releaseMemoryWhenIdle } from '../support/garbage-collection.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { deleteKeys, explainRunFailure } from './run-cleanup.ts';
import { TAIL_MESSAGE_BYTES, Warmup, tailCommands, tailPlan, warmupSize } from './warmup.ts';
import { monitorLineBytes } from '../probes/monitor-probe.ts';
import { TAIL_SEGMENT_BYTES } from '../probes/kernel-tcp-probe.ts';
import { collectRun } from './run/collect-run.ts';
import { measureRun, runHeader, type RunProgress } from './run/measure-run.ts';
import { RunConnection, calibrateHop, measureRtt } from './run/run-connection.ts';
import type { RunEnd, RunListener } from './run/run-listener.ts';
import { planRun, runMonitorBytes, type RunParameters, type RunPlan } from './run/run-plan.ts';
import { RunProbes } from './run/run-probes.ts';

export { FLUSH_INTERVAL_MS } from './run/measure-run.ts';
import { guardRun, type GuardedRun } from './run-guard.ts';
import { runOnCluster } from './cluster-run.ts';

export { type RunParameters } from './run/run-plan.ts';
export { newRunId } from './run-id.ts';
export type { RunEnd, RunListener } from './run/run-listener.ts';

/** After a run of at least this many commands, memory is given back once the backend is idle. */
export const RELEASE_MEMORY_AFTER_COMMANDS = 50_000;

/** Runs between their start and the end of their clean-up: a full GC must not land in one. */
let runsUnderWay = 0;

export async function executeRun(
  session: RedisSession,
  mode: RunMode,
  spec: RunParameters,
  listener: RunListener = {},
  signal?: AbortSignal,
): Promise<TraceDocument> {
  throwIfCancelled(signal);
  return guardRun(session, mode, spec, listener, signal, async (guarded) => {
    runsUnderWay++;
    try {
      const plan = planRun(mode, spec, guarded.id);
      return await (session.cluster ? runOnCluster(session, plan, guarded) : runInOrder(session, plan, guarded));
    } finally {
      runsUnderWay--;
      if (spec.n >= RELEASE_MEMORY_AFTER_COMMANDS) releaseMemoryWhenIdle(() => runsUnderWay === 0);
    }
  });
}

async function runInOrder(session: RedisSession, plan: RunPlan, guarded: GuardedRun<RunEnd>): Promise<TraceDocument> {
  const { listener, signal, hooks } = guarded;
  const { control, target } = session; // a restarted private redis-server gets a new target: not this run's
  const connection = new RunConnection();
  const probes = new RunProbes();
  const progress: RunProgress = { written: 0 };
  let warmup: Warmup | undefined;
  let document: TraceDocument | undefined;
  let everyReply = false;
  let failure: unknown;
  const abort = () => {
    connection.abort();
    probes.halt();
  };
  signal?.addEventListener('abort', abort);
  try {
    // Everything from here to t0 (in measureRun) is Pipescope's own set-up: none of it is in the run's time.
    const run = await connection.open(target, plan, signal);
    for (const [name, ...args] of [...plan.workload.commands.setup, ...(plan.workload.wirePlan?.setup ?? [])]) {
      assertAllowed(plan.namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    if (connection.proxy) await calibrateHop(connection.proxy, plan.network, run, control);
    const rtt = await measureRtt(run, plan.network, connection.proxy, control);
    // A full GC before the warm-up, when memory is sampled: the baseline then holds what is really alive,
    // and the warm-up runs the client's code and allocations again after the GC (a GC right before t0
    // cost the first command ~75 µs here).
    if (plan.probes.memory) collectGarbage();
    warmup = warmupFor(plan, rtt.measuredMedianUs);
    await warmup?.run(run, control, plan.mode, plan.workload.chunk, signal);
    await probes.open(control, target, plan, run, connection.proxy?.hopCompensationNs ?? 0);
    await probes.readTcpBefore(run.socket, plan);
    await prepare(plan, run, () => signal?.aborted === true);
    const { workload } = plan;
    const tail = tailPlan(plan.mode, workload.command, workload.operations, workload.chunk, warmup?.commands ?? 0, workload.valueBytes, rtt.measuredMedianUs,
      plan.probes.kernelTcp ? TAIL_SEGMENT_BYTES : TAIL_MESSAGE_BYTES);
    const warmed = warmup ? { commands: warmup.commands, durationUs: warmup.durationUs, ...(tail.roundTrips > 0 ? { tail: { roundTrips: tail.roundTrips, commands: tail.commands } } : {}) } : null;
    const header = runHeader(plan, session.info, rtt, warmed, run.client);
    const tailLineBytes = warmup && tail.commands > 0 ? tail.commands * Math.max(...tailCommands(warmup.workload, 0).map(monitorLineBytes)) : 0;
    const hotStart = { warmup, tail, monitorBytes: plan.probes.monitor ? runMonitorBytes(plan) + tailLineBytes : 0 };
    // The lease covers the measurement: nothing of ours reaches Redis from the first INFO snapshot to measured().
    const measured = await measureRun(plan, connection, probes, header, hotStart, control, listener, progress, signal, hooks.measuring);
    everyReply = true; // from here a failure leaves no command in flight: its keys are deleted as a finished run's
    hooks.replied(); // Redis refused commands it was not asked to fail: the run says so (refused-replies.ts)
    const end = await collectRun(plan, run, connection.source!, control, probes, measured, tail, hooks.measured);
    measured.builder.checkComplete(end.serverSide);
    listener.onEnd?.(plan.id, end);
    document = measured.builder.finish(end.server, end);
  } catch (error) {
    failure = signal?.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal?.removeEventListener('abort', abort);
  // Clean-up, whatever happened: probes, connections, then the run's keys.
  await probes.close();
  await connection.close(document !== undefined);
  const { workload } = plan;
  // A plan's wire commands are not one per key (MULTI, one EVAL or MSET for all): once any was written, any key may exist.
  const written = progress.written;
  const keysWritten = written === 0 ? 0 : workload.wirePlan ? workload.operations : Math.min(written, workload.operations);
  const sets = [[workload.commands, keysWritten] as const, ...(warmup ? [[warmup.workload, warmup.written] as const] : [])];
  const leftKeys = await deleteKeys(session, control, target, plan.namespace, sets, document || everyReply ? undefined : connection.source);
  await hooks.cleaned(!leftKeys);
  if (failure) throw failure instanceof RunCancelledError ? failure : await explainRunFailure(failure, target, leftKeys);
  if (leftKeys) throw new Error(`The run finished, but ${leftKeys}`);
  return document!;
}

/** The run's warm-up (warmup.ts), sized to the link; none for a cold run. */
function warmupFor(plan: RunPlan, rttUs: number): Warmup | undefined {
  const { workload, mode, namespace } = plan;
  const count = warmupSize(mode, workload.operations, workload.chunk, warmupCommands(workload.operations, workload.cold), rttUs, workload.command);
  return count === 0 ? undefined : new Warmup(workload.command, namespace, workload.valueBytes, count);
}

/** Whatever the engine does ahead of the run (the raw engine encodes its commands), before t0. */
async function prepare(plan: RunPlan, run: RunDriver, cancelled: () => boolean): Promise<void> {
  const { workload, mode } = plan;
  if (workload.wirePlan) await run.preparePlan?.(workload.wirePlan, cancelled);
  else if (mode !== 'auto' && !workload.dependent) await run.prepare(workload.commands, workload.operations, cancelled);
}

function throwIfCancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw new RunCancelledError('Run cancelled');
}
