// Executes one measured run on its own dedicated connection (a pipeline holds its connection
// exclusively): sequential = one command awaited after another; pipeline = one pipeline().exec().
// Socket probe events are flushed in batches to the TraceBuilder and to any live listener, so the
// trace the recorder saves and the one the browser builds come from the same events.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Socket } from 'node:net';
import { TraceBuilder, type ProbeBatch, type TraceHeader } from '../trace/trace-builder.ts';
import type { RunSpec } from '../trace/run-request.ts';
import type { RunInfo, RunMode, TraceDocument } from '../trace/trace-format.ts';
import { percentile } from '../trace/trace-stats.ts';
import { assertAllowed, namespaceFor } from './command-guard.ts';
import { recorderInfo } from './recorder-info.ts';
import { DelayProxy } from './delay-proxy.ts';
import { connect, targetHostPort, viaProxy } from './redis-target.ts';
import type { RedisSession } from './redis-session.ts';
import { previewReply } from './reply-preview.ts';
import { serverDelta, snapshotServer } from './server-counters.ts';
import { redisAddress } from './monitor-probe.ts';
import { ProxyProbe } from './proxy-probe.ts';
import { ServerTracer } from './server-tracer.ts';
import { SocketProbe, microsSince } from './socket-probe.ts';
import { workloadFor, type Workload } from './run-workload.ts';

export const FLUSH_INTERVAL_MS = 50;

export interface RunListener {
  onStart?(header: TraceHeader): void;
  onBatch?(runId: string, batch: ProbeBatch): void;
}

export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
}

export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

/** What one run needs to know; the network fields default to a direct connection. */
export type RunParameters = Pick<RunSpec, 'command' | 'n' | 'valueBytes'> & Partial<Pick<RunSpec, 'rttMs' | 'jitterMs' | 'serverTrace'>>;

export async function executeRun(
  session: RedisSession,
  mode: RunMode,
  spec: RunParameters,
  listener: RunListener = {},
  signal?: AbortSignal,
): Promise<TraceDocument> {
  const id = newRunId();
  const namespace = namespaceFor(id);
  const valueBytes = spec.command === 'SET' || spec.command === 'GET' ? spec.valueBytes : 0;
  const workload = workloadFor(spec.command, namespace, valueBytes);
  for (const index of [0, spec.n - 1]) assertAllowed(namespace, spec.command, workload.argsFor(index).map(String));
  const delay = { addedRttMs: spec.rttMs ?? 0, jitterMs: spec.jitterMs ?? 0 };

  const { control } = session;
  const proxy = delay.addedRttMs > 0 || delay.jitterMs > 0 ? await DelayProxy.start(targetHostPort(session.target), delay) : undefined;
  const connection = connect(proxy ? viaProxy(session.target, proxy) : session.target, `pipescope-run-${id}`);
  let written = 0; // commands handed to the socket: no key beyond these can exist
  let tracer: ServerTracer | undefined;
  const abort = () => connection.disconnect();
  signal?.addEventListener('abort', abort);
  try {
    await connection.connect();
    for (const [name, ...args] of workload.setup) {
      assertAllowed(namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    const rtt = { addedMs: delay.addedRttMs, jitterMs: delay.jitterMs, ...(await measureRtt(connection, delay.addedRttMs >= 50 ? 3 : 5)) };
    // MONITOR starts before the first INFO snapshot, so its own command is not taken for traffic.
    if (spec.serverTrace) tracer = await ServerTracer.start(control, session.target);
    const before = await snapshotServer(control, namespace);
    throwIfCancelled(signal);

    const t0 = process.hrtime.bigint();
    const run: RunInfo = {
      id, mode, command: spec.command, n: spec.n, valueBytes,
      startedAt: new Date().toISOString(), keyPattern: workload.keyPattern,
    };
    const header: TraceHeader = { run, redis: session.info, rtt, recorder: recorderInfo() };
    const builder = new TraceBuilder(header);
    listener.onStart?.(header);

    const probe = new SocketProbe(connection.stream as Socket, t0, Boolean(spec.serverTrace));
    const proxyProbe = proxy && new ProxyProbe(proxy, t0);
    const flush = () => {
      const batch: ProbeBatch = { ...probe.take(), ...proxyProbe?.take() };
      builder.addBatch(batch);
      written = builder.progress.sent;
      listener.onBatch?.(id, batch);
    };
    const flusher = setInterval(flush, FLUSH_INTERVAL_MS);
    try {
      if (mode === 'sequential') await runSequential(connection, workload, spec.n, probe, signal);
      else await runPipeline(connection, workload, spec.n, probe);
    } catch (error) {
      throw signal?.aborted ? new RunCancelledError('Run cancelled') : error;
    } finally {
      clearInterval(flusher);
      probe.detach();
      proxyProbe?.detach();
      flush();
    }
    const after = await snapshotServer(control, namespace);
    const delta = serverDelta(before, after, spec.n, spec.command);
    const socket = connection.stream as Socket;
    const runSource = proxy ? proxy.upstreamAddresses[0]! : redisAddress(socket.localAddress, socket.localPort);
    const serverSide = tracer ? await tracer.finish(runSource, spec.n, spec.command, t0, builder.progress.lastUs) : null;
    // MONITOR's feed is written to its own client, so a traced run's INFO write count includes it.
    return builder.finish({ ...delta, exclusive: delta.exclusive && !tracer, source: 'redis-info' }, serverSide);
  } catch (error) {
    throw signal?.aborted && !(error instanceof RunCancelledError) ? new RunCancelledError('Run cancelled') : error;
  } finally {
    signal?.removeEventListener('abort', abort);
    await tracer?.stop();
    connection.disconnect();
    await proxy?.close();
    await deleteRunKeys(control, namespace, workload, written);
  }
}

/** Round trips of PING on the run's own connection, before t0: what one command's wait is made of. */
async function measureRtt(connection: Redis, samples: number): Promise<{ measuredMinUs: number; measuredMedianUs: number; samples: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await connection.ping();
    times.push(microsSince(started));
  }
  times.sort((a, b) => a - b);
  return { measuredMinUs: times[0]!, measuredMedianUs: percentile(times, 50), samples };
}

async function runSequential(connection: Redis, workload: Workload, n: number, probe: SocketProbe, signal?: AbortSignal): Promise<void> {
  for (let i = 0; i < n; i++) {
    throwIfCancelled(signal);
    try {
      probe.recordOutcome({ reply: previewReply(await connection.call(workload.command, ...workload.argsFor(i))) });
    } catch (error) {
      if (!isReplyError(error)) throw error;
      probe.recordOutcome({ error: error.message });
    }
  }
}

async function runPipeline(connection: Redis, workload: Workload, n: number, probe: SocketProbe): Promise<void> {
  const pipeline = connection.pipeline();
  for (let i = 0; i < n; i++) pipeline.call(workload.command, ...workload.argsFor(i));
  const results = await pipeline.exec();
  if (!results || results.length !== n) throw new Error('The pipeline did not return one result per command');
  for (const [error, value] of results) {
    if (error && !isReplyError(error)) throw error;
    probe.recordOutcome(isReplyError(error) ? { error: error.message } : { reply: previewReply(value) });
  }
}

const DELETE_BATCH = 1000;

/** Removes every key the run may have made, in batches, by name (no KEYS, no SCAN needed). */
export async function deleteRunKeys(control: Redis, namespace: string, workload: Workload, n: number): Promise<void> {
  let batch: string[] = [];
  const send = async () => {
    if (batch.length === 0) return;
    assertAllowed(namespace, 'UNLINK', batch);
    await control.unlink(...batch);
    batch = [];
  };
  for (const key of workload.keys(n)) {
    batch.push(key);
    if (batch.length === DELETE_BATCH) await send();
  }
  await send();
}

/** An error reply from Redis (part of the measured run), as opposed to a failed connection. */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}

function throwIfCancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw new RunCancelledError('Run cancelled');
}
