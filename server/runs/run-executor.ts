// Executes one measured run on its own dedicated connection (a pipeline holds its connection
// exclusively): sequential = one command awaited after another; pipeline = all written at once;
// chunked = pipelines of `chunk`, one after another; by ioredis or by the raw engine (drivers/).
// t0 is the instant the run calls the client for its first command: every set-up step (warm-up,
// probes, samplers and their baselines, the start message, the first INFO snapshot, GC) comes before.
// Socket probe events are flushed in batches to the TraceBuilder and to any live listener, so the
// trace the recorder saves and the one the browser builds come from the same events. A Cancel (the
// signal) aborts the driver at once: its socket is destroyed, nothing more reaches Redis; then, as
// after any run, the probes stop and the run's keys are deleted (run-cleanup.ts). After a big run the
// backend gives its memory back once idle (support/garbage-collection.ts).
import { randomBytes } from 'node:crypto';
import { TraceBuilder, type Outcome, type ProbeBatch, type ServerCounts, type ServerSide, type TraceHeader } from '../../trace/format/trace-builder.ts';
import { commandTakesValue, serverProbes, warmupCommands, type RunSpec } from '../../trace/format/run-request.ts';
import type { HeldConnection, KernelTcp, KeysAfter, Memory, Neighbor, RunInfo, RunMode, TraceDocument } from '../../trace/format/trace-format.ts';
import { percentile } from '../../trace/derive/trace-stats.ts';
import { assertAllowed, namespaceFor } from '../protocol/command-guard.ts';
import { recorderInfo } from '../support/recorder-info.ts';
import { DelayProxy } from '../probes/delay-proxy.ts';
import { targetHostPort, viaProxy } from '../redis/redis-target.ts';
import { openDriver } from '../drivers/open-driver.ts';
import type { RunDriver } from '../drivers/run-driver.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { serverDelta, snapshotServer } from '../probes/server-counters.ts';
import { redisAddress } from '../probes/monitor-probe.ts';
import { ProxyProbe } from '../probes/proxy-probe.ts';
import { MemorySampler } from '../probes/memory-sampler.ts';
import { collectGarbage, releaseMemoryWhenIdle } from '../support/garbage-collection.ts';
import { ServerTracer } from '../probes/server-tracer.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { RunClock, microsSince } from '../support/monotonic-clock.ts';
import { kernelTcpDelta, readKernelTcp } from '../probes/kernel-tcp-probe.ts';
import { deleteKeys, explainRunFailure } from './run-cleanup.ts';
import { Warmup, warmupSize } from './warmup.ts';
import { workloadFor, type Workload } from '../protocol/run-workload.ts';
import { PLAN_MODES, executionsOf, modePlan, type WirePlan } from '../protocol/mode-plan.ts';
import { wireCommandCount, wireCommandName, workCommandCount, type WireRun } from '../../trace/format/wire-layout.ts';
import { readKeysAfter } from './keys-after.ts';
import { connectNeighbor, type NeighborClient } from '../probes/neighbor-client.ts';
import { HELD_CONNECTION_OWN_TRAFFIC, HeldConnectionProbe } from '../probes/held-connection-probe.ts';

export const FLUSH_INTERVAL_MS = 50;
/** After a run of at least this many commands, memory is given back once the backend is idle. */
export const RELEASE_MEMORY_AFTER_COMMANDS = 50_000;

/** Runs between their start and the end of their clean-up: a full GC must not land in one. */
let runsUnderWay = 0;

export interface RunListener {
  onStart?(header: TraceHeader): void;
  onBatch?(runId: string, batch: ProbeBatch): void;
  /**
   * All the run measured after its last batch, checked complete, before the document is assembled
   * (a million records take a while): a live view can finish its own copy meanwhile.
   */
  onEnd?(runId: string, end: RunEnd): void;
}

export interface RunEnd {
  server: ServerCounts;
  serverSide: ServerSide | null;
  memory: Memory | null;
  /** µs from t0 until the client's call returned (totals.doneUs). */
  doneUs: number;
  /** t0 on process.hrtime (ns): the instant the run called its client, for checks against other clocks. */
  t0Ns: bigint;
  kernelTcp: KernelTcp | null;
  /** v3: the run's keys read back after it; the neighbour client's commands; the held-connection PINGs. */
  keysAfter: KeysAfter | null;
  neighbor: Neighbor | null;
  heldConnection: HeldConnection | null;
}

export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** What one run needs to know; the optional fields default to ioredis, direct, untraced, warm, one repeat. */
export type RunParameters = Pick<RunSpec, 'command' | 'n' | 'valueBytes'> &
  Partial<Pick<RunSpec, 'rttMs' | 'jitterMs' | 'serverTrace' | 'monitor' | 'strace' | 'engine' | 'chunk' | 'memory' | 'cold' | 'kernelTcp' | 'chunkPauseMs' | 'errorAt' | 'errorKind'>> &
  Partial<Pick<RunSpec, 'neighborRate' | 'neighborCommand' | 'heldConnection'>> & {
    /** Which repeat of its request this run is, from 0 (recorded as run.repeat). */
    repeat?: number;
    /**
     * Commands per slice of a long ioredis pipeline (drivers/ioredis-driver.ts; default PIPELINE_SLICE).
     * Infinity hands it to ioredis in one piece, as before slicing: for measuring what slicing costs.
     */
    pipelineSlice?: number;
  };

export async function executeRun(
  session: RedisSession,
  mode: RunMode,
  spec: RunParameters,
  listener: RunListener = {},
  signal?: AbortSignal,
): Promise<TraceDocument> {
  throwIfCancelled(signal);
  runsUnderWay++;
  try {
    return await measureRun(session, mode, spec, listener, signal);
  } finally {
    runsUnderWay--;
    if (spec.n >= RELEASE_MEMORY_AFTER_COMMANDS) releaseMemoryWhenIdle(() => runsUnderWay === 0);
  }
}

async function measureRun(session: RedisSession, mode: RunMode, spec: RunParameters, listener: RunListener, signal: AbortSignal | undefined): Promise<TraceDocument> {
  const id = newRunId();
  const namespace = namespaceFor(id);
  const valueBytes = commandTakesValue(spec.command) ? spec.valueBytes : 0;
  const injectedError = spec.errorAt === undefined ? null : { operation: spec.errorAt, kind: spec.errorKind ?? 'runtime' };
  const workload = workloadFor(spec.command, namespace, valueBytes, injectedError);
  const plan = PLAN_MODES.includes(mode) ? modePlan(mode, workload, spec.n) : null;
  assertRunAllowed(namespace, workload, spec.n, plan, injectedError?.operation);
  const delay = { addedRttMs: spec.rttMs ?? 0, jitterMs: spec.jitterMs ?? 0 };
  if (mode === 'chunked' && !spec.chunk) throw new Error('A chunked run needs a chunk size.');
  const dependent = spec.command === 'GET-COMPUTE-SET';
  if (dependent && mode !== 'sequential' && mode !== 'eval') throw new Error('GET-COMPUTE-SET runs sequentially or as one EVAL: each SET needs its GET\'s reply.');
  const chunk = mode === 'chunked' ? spec.chunk! : spec.n;
  const chunkPauseMs = mode === 'chunked' ? spec.chunkPauseMs ?? 0 : 0;
  const { monitor, strace } = serverProbes({ serverTrace: spec.serverTrace ?? false, monitor: spec.monitor ?? false, strace: spec.strace ?? false });
  const probes = { monitor, strace, memory: spec.memory ?? false, kernelTcp: spec.kernelTcp ?? false, heldConnection: spec.heldConnection ?? false };
  const wireRun = { mode, command: spec.command, operations: spec.n, probes };
  const wireN = wireCommandCount(wireRun); // the held PING included
  const executions = executionsOf({ ...wireRun, injectedError });
  const work = workCommandCount(mode, spec.command, spec.n);

  const { control, target } = session; // a restarted private redis-server gets a new target: not this run's
  const clock = new RunClock();
  let proxy: DelayProxy | undefined;
  let driver: RunDriver | undefined;
  let tracer: ServerTracer | undefined;
  let sampler: MemorySampler | undefined;
  let warmup: Warmup | undefined;
  let neighbor: NeighborClient | undefined; // another client on its own connection, before t0 to after the run
  let held: HeldConnectionProbe | undefined; // the second connection of the held-connection probe
  let written = 0; // commands handed to the socket: no key beyond these can exist
  let runSource: string | undefined; // the run connection as Redis sees it (host:port)
  let document: TraceDocument | undefined;
  let failure: unknown;
  const cancelled = () => signal?.aborted === true;
  const abort = () => {
    driver?.abort();
    neighbor?.halt();
  };
  signal?.addEventListener('abort', abort);
  try {
    // Everything from here to clock.start() is Pipescope's own set-up: none of it is in the run's time.
    if (delay.addedRttMs > 0 || delay.jitterMs > 0) proxy = await DelayProxy.start(targetHostPort(target), delay);
    driver = await openDriver(spec.engine ?? 'ioredis', proxy ? viaProxy(target, proxy) : target, `pipescope-run-${id}`, { pipelineSlice: spec.pipelineSlice });
    const run = driver;
    throwIfCancelled(signal); // a Cancel while connecting found no driver to abort
    runSource = proxy ? proxy.upstreamAddresses[0] : redisAddress(run.socket.localAddress, run.socket.localPort);
    for (const [name, ...args] of [...workload.setup, ...(plan?.setup ?? [])]) {
      assertAllowed(namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    const rtt = { addedMs: delay.addedRttMs, jitterMs: delay.jitterMs, ...(await measureRtt(run, delay.addedRttMs >= 50 ? 3 : 5)) };
    // A full GC before the warm-up, when memory is sampled: the baseline then holds what is really alive,
    // and the warm-up runs the client's code and allocations again after the GC (a GC right before t0
    // cost the first command ~75 µs here).
    if (probes.memory) collectGarbage();
    const warmupCount = warmupSize(mode, spec.n, chunk, warmupCommands(spec.n, spec.cold ?? false), rtt.measuredMedianUs, spec.command);
    if (warmupCount > 0) {
      warmup = new Warmup(spec.command, namespace, valueBytes, warmupCount);
      await warmup.run(run, control, mode, chunk, signal);
    }
    // Sampled directly, not through the delay proxy: the samples should not wait for the run's RTT.
    const runClientId = probes.memory ? await run.clientId() : 0;
    if (probes.memory) {
      sampler = await MemorySampler.connect(target, `pipescope-memory-${id}`);
      await sampler.start(runClientId); // the baseline, before the first INFO snapshot
    }
    // MONITOR starts before the first INFO snapshot, so its own command is not taken for traffic.
    if (monitor || strace) tracer = await ServerTracer.start(control, target, { monitor, strace });
    if (probes.heldConnection) held = await HeldConnectionProbe.open(target, `pipescope-held-${id}`, delay);
    if ((spec.neighborRate ?? 0) > 0) neighbor = await connectNeighbor(target, id, namespace, spec.neighborCommand ?? 'INCR', spec.neighborRate!, spec.valueBytes);
    await neighbor?.go(); // issuing from now on; resolves once its latency before t0 (the baseline) is in
    const tcpBefore = probes.kernelTcp ? await readKernelTcp(run.socket) : undefined;
    const before = await snapshotServer(control, namespace);
    if (plan) await run.preparePlan?.(plan, cancelled);
    else if (mode !== 'auto' && !dependent) await run.prepare(workload, spec.n, cancelled);

    const info: RunInfo = {
      id, mode, command: spec.command, n: wireN, operations: spec.n, valueBytes,
      startedAt: new Date().toISOString(), keyPattern: workload.keyPattern,
      ...(mode === 'chunked' ? { chunk } : {}),
      warmup: warmup ? { commands: warmup.commands, durationUs: warmup.durationUs } : null,
      injectedError,
      repeat: spec.repeat ?? 0,
      probes,
      ...(mode === 'chunked' ? { chunkPauseMs } : {}),
    };
    const header: TraceHeader = { run: info, redis: session.info, rtt, recorder: recorderInfo(run.client) };
    const builder = new TraceBuilder(header);
    listener.onStart?.(header);

    // The raw engine is for looking at bytes: it always keeps them, as server-traced runs do.
    const probe = new SocketProbe(run.socket, clock, monitor || strace || spec.engine === 'raw');
    const proxyProbe = proxy && new ProxyProbe(proxy, clock);
    const flush = () => {
      const batch: ProbeBatch = { ...probe.take(), ...proxyProbe?.take() };
      builder.addBatch(batch);
      written = builder.progress.sent;
      listener.onBatch?.(id, batch);
    };
    const record = (outcome: Outcome) => probe.recordOutcome(outcome);
    held?.arm(probe, clock, wireN - 1, () => run.ping());
    throwIfCancelled(signal);
    const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
    sampler?.go();
    let doneUs = 0;
    let sampled: Awaited<ReturnType<MemorySampler['stop']>> | undefined;
    try {
      const t0 = clock.start();
      if (plan) await run.batches(plan, record, cancelled);
      else if (mode === 'auto') await run.auto(workload, spec.n, record, cancelled);
      else if (dependent) await run.dependent(workload, spec.n, record, cancelled);
      else if (mode === 'sequential') await run.sequential(workload, spec.n, record, cancelled);
      else await run.pipeline(workload, spec.n, chunk, record, cancelled, chunkPauseMs);
      if (held) record(await held.sameConnectionPing().then(() => ({ reply: 'PONG' })));
      doneUs = microsSince(t0);
    } finally {
      clearInterval(flusher);
      probe.detach();
      proxyProbe?.detach();
      flush();
      sampled = await sampler?.stop(clock.t0);
    }
    const neighborRecord = neighbor ? await neighbor.stop(clock.t0) : null;
    const heldRecord = held ? await held.finish(() => builder.times.repliedUs[wireN - 1]!) : null;
    const tcpAfter = tcpBefore && await readKernelTcp(run.socket);
    const after = await snapshotServer(control, namespace);
    const sampling = sampled?.requests ?? 0;
    const own = held ? HELD_CONNECTION_OWN_TRAFFIC : { reads: 0, writes: 0, commands: 0 }; // the other connection's PING
    // Redis counts each wire command it executed and each redis.call of a script (protocol/mode-plan.ts).
    const executedN = wireN - (work - executions.executedCount);
    const delta = serverDelta(before, after, executedN + executions.luaCalls, serviceCommands(wireRun), { reads: sampling + own.reads, writes: sampling + own.writes, commands: 2 * sampling + own.commands });
    const expected = { n: wireN, name: (i: number) => wireCommandName(wireRun, i), executed: (i: number) => i >= work || executions.executed(i), executedCount: executedN };
    // Pipescope's own other connections during the run: labelled as such, never counted as other clients.
    const ownSources = new Map<string, string>([...(sampler?.address ? [[sampler.address, 'memory sampler'] as const] : []), ...(held ? [[held.address, 'held-connection probe'] as const] : [])]);
    const serverSide = tracer ? await tracer.finish(runSource!, expected, clock.t0, builder.progress.lastUs, ownSources) : null;
    const keysAfter = injectedError || KEYS_AFTER_MODES.includes(mode) ? await readKeysAfter(control, namespace, workload, spec.n) : null;
    // MONITOR's feed is written to its own client, so a traced run's INFO write count includes it.
    const end: RunEnd = {
      server: { ...delta, exclusive: delta.exclusive && !tracer?.monitorOn && !neighbor, source: 'redis-info' },
      serverSide,
      memory: sampled?.memory ?? null,
      doneUs,
      t0Ns: clock.t0,
      kernelTcp: tcpBefore && tcpAfter ? kernelTcpDelta(tcpBefore, tcpAfter) : null,
      keysAfter,
      neighbor: neighborRecord,
      heldConnection: heldRecord,
    };
    builder.checkComplete(serverSide);
    listener.onEnd?.(id, end);
    document = builder.finish(end.server, end);
  } catch (error) {
    failure = signal?.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  }
  signal?.removeEventListener('abort', abort);
  // Clean-up, whatever happened: probes, connections, then the run's keys.
  await tracer?.stop().catch(() => {});
  await neighbor?.close(); // its command in flight answered: nothing of it reaches Redis after the keys go
  await held?.close();
  sampler?.close();
  if (document) driver?.disconnect();
  else driver?.abort();
  await proxy?.close();
  // A plan's wire commands are not one per key (MULTI, one EVAL or MSET for all): once any was written, any key may exist.
  const keysWritten = written === 0 ? 0 : plan ? spec.n : Math.min(written, spec.n);
  const leftKeys = await deleteKeys(session, control, target, namespace, [[workload, keysWritten], ...(warmup ? [[warmup.workload, warmup.written] as const] : [])], document ? undefined : runSource);
  if (failure) throw failure instanceof RunCancelledError ? failure : await explainRunFailure(failure, target, leftKeys);
  if (leftKeys) throw new Error(`The run finished, but ${leftKeys}`);
  return document!;
}

/** Round trips of PING on the run's own connection, before t0: what one command's wait is made of. */
async function measureRtt(driver: RunDriver, samples: number): Promise<{ measuredMinUs: number; measuredMedianUs: number; samples: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await driver.ping();
    times.push(microsSince(started));
  }
  times.sort((a, b) => a - b);
  return { measuredMinUs: times[0]!, measuredMedianUs: percentile(times, 50), samples };
}

/** Modes whose keys are read back after the run (besides any run with a planted error): transactions and scripts. */
const KEYS_AFTER_MODES: readonly RunMode[] = ['multi', 'eval', 'evalsha'];

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

/**
 * The command guard, before anything is sent: every command of a plan; otherwise the first and last
 * operations and the planted one (the workload's operations differ only in their key's index).
 */
function assertRunAllowed(namespace: string, workload: Workload, n: number, plan: WirePlan | null, injectedAt: number | undefined): void {
  const text = (args: readonly (string | Buffer)[]) => args.map((arg) => (typeof arg === 'string' ? arg : '<bytes>'));
  if (plan) {
    for (const batch of plan.batches()) for (const [name, ...args] of batch) assertAllowed(namespace, name, text(args));
    for (const [name, ...args] of plan.setup) assertAllowed(namespace, name, text(args));
    return;
  }
  for (const index of new Set([0, n - 1, ...(injectedAt === undefined ? [] : [injectedAt])])) {
    const args = workload.argsFor(index);
    if (workload.command === 'GET-COMPUTE-SET') {
      assertAllowed(namespace, 'GET', text(args));
      assertAllowed(namespace, 'SET', [...text(args), '0']);
    } else assertAllowed(namespace, workload.command, text(args));
  }
}

function throwIfCancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw new RunCancelledError('Run cancelled');
}

