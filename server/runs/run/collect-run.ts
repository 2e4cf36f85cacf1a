// After a run's last reply, everything measured around it rather than at its socket: the memory
// samples, the neighbour's commands, the held-connection PINGs, the kernel's TCP figures and Redis's
// INFO (each a delta from the reading before the run, Pipescope's own traffic taken out), the Redis
// side from MONITOR and strace, the run's keys as Redis left them, Redis's CPU time over the run and
// what each probe cost it. One RunEnd, which the live view and the trace document both finish from.
import type { Redis } from 'ioredis';
import { workCommandCount, wireCommandName, type WireRun } from '../../../trace/format/wire-layout.ts';
import type { ProbeCosts, RunMode } from '../../../trace/format/trace-format.ts';
import { HELD_CONNECTION_OWN_TRAFFIC } from '../../probes/held-connection-probe.ts';
import { kernelTcpDelta, readKernelTcp } from '../../probes/kernel-tcp-probe.ts';
import { parseSnapshot, serverDelta, snapshotServer } from '../../probes/server-counters.ts';
import { infoCpu, schedstatCpu } from '../../probes/server-cpu.ts';
import { microsSince } from '../../support/monotonic-clock.ts';
import type { ServerSide } from '../../../trace/format/trace-builder.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import { readKeysAfter } from '../keys-after.ts';
import { singleKeyspace } from '../../redis/keyspace.ts';
import type { TailPlan } from '../warmup.ts';
import type { Measured } from './measure-run.ts';
import type { RunEnd } from './run-listener.ts';
import type { RunPlan } from './run-plan.ts';
import type { RunProbes } from './run-probes.ts';

/** Modes whose keys are read back after the run (besides any run with a planted error): transactions and scripts. */
const KEYS_AFTER_MODES: readonly RunMode[] = ['multi', 'eval', 'evalsha'];

/**
 * `tail`: the warm-up's tail, sent after the first INFO snapshot: one read and one write event per round
 * trip and its commands, taken out of the INFO deltas; its MONITOR lines precede the run's own.
 */
export async function collectRun(plan: RunPlan, run: RunDriver, runSource: string, control: Redis, probes: RunProbes, measured: Measured, tail: TailPlan, onMeasured: () => void = () => {}): Promise<RunEnd> {
  const { builder, clock, doneUs } = measured;
  const { sampler, neighbor, held, tracer } = probes;
  const { wire, workload, namespace } = plan;
  const sampled = await sampler?.stop(clock.t0);
  const neighborRecord = neighbor ? await neighbor.stop(clock.t0) : null;
  const heldRecord = held ? await held.finish(() => builder.times.repliedUs[wire.n - 1]!) : null;
  const tcpBefore = probes.tcpBefore;
  const ssStarted = process.hrtime.bigint();
  const tcpAfter = tcpBefore && await readKernelTcp(run.socket);
  if (tcpBefore) probes.setupUs.kernelTcp += microsSince(ssStarted);
  const after = await snapshotServer(control, namespace);
  const before = parseSnapshot(probes.infoBefore!);
  const sampling = sampled?.requests ?? 0;
  const heldPing = held ? HELD_CONNECTION_OWN_TRAFFIC : { reads: 0, writes: 0, commands: 0 }; // the other connection's PING
  const tailExecuted = tail.commands - measured.tailRefused;
  const own = { reads: heldPing.reads + tail.roundTrips, writes: heldPing.writes + tail.roundTrips, commands: heldPing.commands + tailExecuted };
  // Redis counts each wire command it executed and each redis.call of a script (protocol/mode-plan.ts).
  const executedN = wire.n - (wire.work - wire.executions.executedCount);
  const delta = serverDelta(before, after, executedN + wire.executions.luaCalls, serviceCommands(wire.run), { reads: sampling + own.reads, writes: sampling + own.writes, commands: 2 * sampling + own.commands });
  const expected = { before: tailExecuted, n: wire.n, name: (i: number) => wireCommandName(wire.run, i), executed: (i: number) => i >= wire.work || wire.executions.executed(i), executedCount: executedN };
  const serverSide = tracer ? await tracer.finish(runSource, expected, clock.t0, builder.progress.lastUs, probes.ownSources()) : null;
  onMeasured(); // the last snapshot and the server-side probes are in: Pipescope may talk to Redis again
  const keysAfter = workload.injectedError || KEYS_AFTER_MODES.includes(plan.mode) ? await readKeysAfter(singleKeyspace(control), namespace, workload.commands, workload.operations) : null;
  const durationUs = builder.progress.lastUs;
  const { schedstat } = measured;
  const serverCpu = schedstat ? schedstatCpu(schedstat.beforeNs, schedstat.afterNs, before, after, durationUs) : infoCpu(before, after, durationUs);
  return {
    // MONITOR's feed is written to its own client, so a traced run's INFO write count includes it.
    server: { ...delta, exclusive: delta.exclusive && !tracer?.monitorOn && !neighbor, source: 'redis-info' },
    serverSide,
    memory: sampled?.memory ?? null,
    doneUs,
    t0Ns: clock.t0,
    kernelTcp: tcpBefore && tcpAfter ? kernelTcpDelta(tcpBefore, tcpAfter, measured.tailTraffic) : null,
    keysAfter,
    neighbor: neighborRecord,
    heldConnection: heldRecord,
    serverCpu,
    probeCosts: probeCosts(plan, probes, measured, sampled?.runThread, sampled?.requests ?? 0, serverSide),
  };
}

/** What each probe that ran cost the run (trace-format.ts ProbeCostsSchema). */
function probeCosts(plan: RunPlan, probes: RunProbes, measured: Measured, sampledThread: { us: number; samples: number } | undefined, requests: number, serverSide: ServerSide | null): ProbeCosts {
  const { inRun } = measured;
  const { setupUs } = probes;
  const executed = plan.wire.n - (plan.wire.work - plan.wire.executions.executedCount);
  return {
    socket: inRun.socket,
    flushes: inRun.flushes,
    ...(sampledThread ? { memory: { inRunUs: sampledThread.us, clientSamples: sampledThread.samples, serverRequests: requests, setupUs: setupUs.memory } } : {}),
    ...(probes.tracer?.monitorOn ? { monitor: { heldDuringRun: inRun.monitorHeld, inRunUs: inRun.monitorUs, lines: executed + plan.wire.executions.luaCalls, setupUs: setupUs.tracer } } : {}),
    ...(serverSide?.trace.syscalls ? { strace: { syscalls: serverSide.trace.syscalls.calls.length, setupUs: setupUs.tracer } } : {}),
    ...(probes.tcpBefore ? { kernelTcp: { setupUs: setupUs.kernelTcp } } : {}),
  };
}

/**
 * The wire commands whose INFO commandstats time is the run's service time. Redis 7 times a nested
 * command twice, in its own entry and in its caller's: EXEC's time includes the commands it ran, EVAL's
 * its script's redis.call commands, so only the outer names count.
 */
function serviceCommands(run: WireRun): string[] {
  if (run.mode === 'multi') return ['MULTI', 'EXEC'];
  const names = new Set<string>();
  const work = workCommandCount(run.mode, run.command, run.operations);
  for (let i = 0; i < Math.min(work, 3); i++) names.add(wireCommandName(run, i));
  if (work > 0) names.add(wireCommandName(run, work - 1));
  return [...names];
}
