// Executes one measured run on its own dedicated connection (a pipeline holds its connection
// exclusively): sequential = one command awaited after another; pipeline = one pipeline().exec().
// Socket probe events are flushed in batches to the TraceBuilder and to any live listener, so the
// trace the recorder saves and the one the browser builds come from the same events.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { TraceBuilder, type ProbeBatch, type Recorder } from '../trace/trace-builder.ts';
import type { RunSpec } from '../trace/run-request.ts';
import type { RedisInfo, RunInfo, RunMode, TraceDocument } from '../trace/trace-format.ts';
import { assertAllowed, namespaceFor } from './command-guard.ts';
import { recorderInfo } from './recorder-info.ts';
import { connect } from './redis-target.ts';
import type { RedisSession } from './redis-session.ts';
import { previewReply } from './reply-preview.ts';
import { serverDelta, snapshotServer } from './server-counters.ts';
import { SocketProbe } from './socket-probe.ts';
import { workloadFor, type Workload } from './run-workload.ts';

export const FLUSH_INTERVAL_MS = 50;

export interface RunListener {
  onStart?(start: { run: RunInfo; redis: RedisInfo; recorder: Recorder }): void;
  onBatch?(runId: string, batch: ProbeBatch): void;
}

export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
}

export function newRunId(): string {
  return `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

export async function executeRun(
  session: RedisSession,
  mode: RunMode,
  spec: Pick<RunSpec, 'command' | 'n' | 'valueBytes'>,
  listener: RunListener = {},
  signal?: AbortSignal,
): Promise<TraceDocument> {
  const id = newRunId();
  const namespace = namespaceFor(id);
  const valueBytes = spec.command === 'SET' || spec.command === 'GET' ? spec.valueBytes : 0;
  const workload = workloadFor(spec.command, namespace, valueBytes);
  for (const index of [0, spec.n - 1]) assertAllowed(namespace, spec.command, workload.argsFor(index).map(String));

  const { control } = session;
  const connection = connect(session.target, `pipescope-run-${id}`);
  let written = 0; // commands handed to the socket: no key beyond these can exist
  const abort = () => connection.disconnect();
  signal?.addEventListener('abort', abort);
  try {
    await connection.connect();
    for (const [name, ...args] of workload.setup) {
      assertAllowed(namespace, name, args.map(String));
      await control.call(name, ...args);
    }
    const before = await snapshotServer(control, namespace);
    throwIfCancelled(signal);

    const t0 = process.hrtime.bigint();
    const run: RunInfo = {
      id, mode, command: spec.command, n: spec.n, valueBytes,
      startedAt: new Date().toISOString(), keyPattern: workload.keyPattern,
    };
    const recorder = recorderInfo();
    const builder = new TraceBuilder(run, session.info, recorder);
    listener.onStart?.({ run, redis: session.info, recorder });

    const probe = new SocketProbe(connection.stream as import('node:net').Socket, t0);
    const flush = () => {
      const batch = probe.take();
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
      flush();
    }
    const after = await snapshotServer(control, namespace);
    const delta = serverDelta(before, after, spec.n);
    return builder.finish({ reads: delta.reads, writes: delta.writes, exclusive: delta.exclusive, source: 'redis-info' });
  } finally {
    signal?.removeEventListener('abort', abort);
    connection.disconnect();
    await deleteRunKeys(control, namespace, workload, written);
  }
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
