// The ioredis engine: the client library people use, one stream.write per command or per pipeline
// (ioredis's Pipeline.execPipeline), replies paired with commands in order. Commands go through
// ioredis's own methods, as its users call them.
//
// A long pipeline would hold the event loop for seconds while ioredis builds and encodes it (1,000,000
// SETs: 7-27 s here), so a Cancel, the live feed and HTTP would all wait. Past PIPELINE_SLICE commands
// it is built and handed to ioredis in slices, each sized to take about SLICE_TARGET_MS, the event
// loop free in between, with the socket corked: the slices reach the kernel together, as one writev,
// once the last is encoded, so Redis still sees one pipeline arriving at once. Each slice's replies
// are recorded as soon as they are in, and its objects let go.
//
// v3: a plan's batches (multi, eval, evalsha, multikey) go as pipelines of generic call()s, a big MULTI
// sliced like a big pipeline; auto turns enableAutoPipelining on for the call (ioredis then writes
// everything issued in the tick as one pipeline at its next setImmediate; measured: 1,000 INCRs, one
// write); GET-COMPUTE-SET awaits each GET before its SET.
import type { Socket } from 'node:net';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { chunks, computeNext, type Workload } from '../protocol/run-workload.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { openConnection } from '../redis/connect-failure.ts';
import { connect, type RedisTarget } from '../redis/redis-target.ts';
import { ioredisVersion } from '../support/recorder-info.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { outcomeRecorder, type OutcomeRecorder } from './outcome-recorder.ts';
import type { RunDriver, WirePlan } from './run-driver.ts';

/** Who writes the commands: the trace's recorder.client. */
export function ioredisClientName(): string {
  return `ioredis ${ioredisVersion()}`;
}

/** Pipelines up to this long are one exec() as ever; longer ones go in slices of at most this many. */
export const PIPELINE_SLICE = 10_000;
/** What one slice should take to build and encode: the event loop is never held much longer. */
const SLICE_TARGET_MS = 10;
const FIRST_SLICE = 1_000;
const MIN_SLICE = 256;

export class IoredisDriver implements RunDriver {
  /** Rejects when the run is aborted: what a sliced pipeline waits for may then never settle. */
  private readonly aborted: Promise<never>;
  private signalAbort: (error: Error) => void = () => {};

  private constructor(
    private readonly connection: Redis,
    readonly client: string,
    private readonly slice: number,
  ) {
    this.aborted = new Promise<never>((_, reject) => (this.signalAbort = reject));
    this.aborted.catch(() => {});
  }

  /** `slice`: commands per slice of a long pipeline (Infinity: one exec() however long, as before). */
  static async open(target: RedisTarget, name: string, slice = PIPELINE_SLICE): Promise<IoredisDriver> {
    const connection = connect(target, name);
    await openConnection(connection, target);
    return new IoredisDriver(connection, ioredisClientName(), slice);
  }

  get socket(): Socket {
    return this.connection.stream as Socket;
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(workload);
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      try {
        outcomes.reply(previewReply(await issue(this.connection, i)));
      } catch (error) {
        if (!isReplyError(error)) throw error;
        outcomes.error(error.message);
      }
    }
  }

  async clientId(): Promise<number> {
    return Number(await this.connection.client('ID'));
  }

  /** Nothing: building commands is part of what a client library costs, so ioredis does it in the run. */
  async prepare(): Promise<void> {}

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean, pauseMs = 0): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(workload);
    for (const [from, to] of chunks(n, chunk)) {
      if (from > 0 && pauseMs > 0) await pause(pauseMs, this.aborted);
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      if (to - from > this.slice) {
        await this.slicedPipeline(issue, from, to, outcomes, cancelled);
        continue;
      }
      const pipeline = this.connection.pipeline();
      for (let i = from; i < to; i++) issue(pipeline, i);
      recordResults(await pipeline.exec(), to - from, outcomes);
    }
  }

  /** One pipeline of commands [from, to), built and encoded in slices, written as one (see the top). */
  private async slicedPipeline(issue: CommandMethod, from: number, to: number, outcomes: OutcomeRecorder, cancelled: () => boolean): Promise<void> {
    const socket = this.socket;
    const slices: { size: number; results: Promise<PipelineResults> | undefined }[] = [];
    let size = Math.min(FIRST_SLICE, this.slice);
    socket.cork();
    try {
      for (let sliceFrom = from; sliceFrom < to; ) {
        const sliceTo = Math.min(to, sliceFrom + size);
        const started = performance.now();
        const pipeline = this.connection.pipeline();
        for (let i = sliceFrom; i < sliceTo; i++) issue(pipeline, i);
        const results = pipeline.exec();
        results.catch(() => {}); // awaited below, in order; a failure shows there
        slices.push({ size: sliceTo - sliceFrom, results });
        // The next slice sized to take SLICE_TARGET_MS at this one's pace (and at most twice as long).
        const msPerCommand = Math.max(1e-4, (performance.now() - started) / (sliceTo - sliceFrom));
        size = Math.max(MIN_SLICE, Math.min(this.slice, 2 * size, Math.round(SLICE_TARGET_MS / msPerCommand)));
        sliceFrom = sliceTo;
        await yieldToEventLoop();
        if (cancelled()) throw new RunCancelledError('Run cancelled');
      }
    } catch (error) {
      // Nothing of this pipeline may reach Redis now: destroyed, the socket drops what it holds corked.
      socket.destroy();
      throw error;
    }
    socket.uncork();
    for (const slice of slices) {
      const results = await Promise.race([slice.results, this.aborted]);
      slice.results = undefined; // let the slice's replies and ioredis's commands go
      recordResults(results ?? null, slice.size, outcomes);
      if (cancelled()) throw new RunCancelledError('Run cancelled');
    }
  }

  /**
   * Each batch as one ioredis pipeline of generic call()s: MULTI and EXEC go as ordinary commands, not
   * through ioredis's multi(), so every wire reply is ioredis's own result for it (MULTI's OK, each
   * QUEUED, EXEC's array or its EXECABORT error); nothing is filled in by Pipescope.
   */
  async batches(plan: WirePlan, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    for (const batch of plan.batches()) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      // The arguments as one array (ioredis flattens it): an MSET or EVAL of 100,000s of keys spread
      // into call()'s parameters would overflow the stack.
      const issue: CommandMethod = (target, i) => {
        const command = batch[i]!;
        return target.call(command[0], command.slice(1));
      };
      if (batch.length > this.slice) {
        await this.slicedPipeline(issue, 0, batch.length, outcomes, cancelled);
        continue;
      }
      const pipeline = this.connection.pipeline();
      for (let i = 0; i < batch.length; i++) issue(pipeline, i);
      recordResults(await pipeline.exec(), batch.length, outcomes);
    }
  }

  /**
   * The n commands issued in one tick through ioredis's own methods, with enableAutoPipelining on for
   * the call: ioredis queues them and writes them as one pipeline at its next setImmediate (its
   * autoPipelining.ts). Turned off again after, so the connection's other calls are plain.
   */
  async auto(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(workload);
    const options = this.connection.options;
    options.enableAutoPipelining = true;
    let settled: PromiseSettledResult<unknown>[];
    try {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const replies = new Array<Promise<unknown>>(n);
      for (let i = 0; i < n; i++) replies[i] = issue(this.connection, i) as Promise<unknown>;
      settled = await Promise.race([Promise.allSettled(replies), this.aborted]);
    } finally {
      options.enableAutoPipelining = false;
    }
    for (const result of settled) {
      const error: unknown = result.status === 'rejected' ? result.reason : null;
      if (error && !isReplyError(error)) throw error;
      if (isReplyError(error)) outcomes.error(error.message);
      else outcomes.reply(previewReply((result as PromiseFulfilledResult<unknown>).value));
    }
  }

  /** GET-COMPUTE-SET: each GET's reply awaited, computeNext of it SET, that reply awaited: two round trips per step. */
  async dependent(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const replyOf = async (call: Promise<unknown>): Promise<unknown> => {
      try {
        const value = await call;
        outcomes.reply(previewReply(value));
        return value;
      } catch (error) {
        if (!isReplyError(error)) throw error;
        outcomes.error(error.message);
        return null;
      }
    };
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const key = String(workload.argsFor(i)[0]);
      const value = await replyOf(this.connection.get(key));
      await replyOf(this.connection.set(key, computeNext(value === null ? null : String(value))));
    }
  }

  disconnect(): void {
    this.connection.disconnect();
  }

  abort(): void {
    this.signalAbort(new RunCancelledError('Run cancelled'));
    // On close, ioredis rejects each command still waiting for its reply, all in one turn of the event
    // loop: for a long pipeline (a million commands) that is about a second before anything else can
    // run. Nobody waits for them now (the sliced pipeline waits on `aborted` too): they are dropped.
    if (this.connection.commandQueue.length > this.slice) this.connection.commandQueue.clear();
    // ioredis's disconnect() ends the stream gracefully: everything queued, corked or not, would
    // still be written. Destroyed first, the socket drops it.
    this.socket.destroy();
    this.connection.disconnect();
  }
}

type PipelineResults = [error: Error | null, result: unknown][] | null;

/** Records one pipeline's results in order; a connection error (not a Redis error reply) is thrown. */
function recordResults(results: PipelineResults, expected: number, outcomes: OutcomeRecorder): void {
  if (!results || results.length !== expected) throw new Error('The pipeline did not return one result per command');
  // Indexed, not destructured: all of a big pipeline's results are recorded here, after its last reply.
  for (let i = 0; i < results.length; i++) {
    const result = results[i]!;
    const error = result[0];
    if (error && !isReplyError(error)) throw error;
    if (isReplyError(error)) outcomes.error(error.message);
    else outcomes.reply(previewReply(result[1]));
  }
}

/** Chunked runs' pause between pipelines (ms), cut short by a Cancel. */
function pause(ms: number, aborted: Promise<never>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), aborted]).finally(() => clearTimeout(timer));
}

/** A macrotask turn: timers, socket reads (a Cancel) and HTTP requests get their turn. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

type CommandMethod = <T extends Redis | ChainableCommander>(target: T, i: number) => unknown;

/**
 * The i-th command through ioredis's own method for it (ping(), incr(k), set(k, v), get(k)), on the
 * connection or a pipeline: what a user writes, and a little cheaper than the generic call().
 */
function commandMethod(workload: Workload): CommandMethod {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'PING':
      return (target) => target.ping();
    case 'INCR':
      // The planted queueing error (protocol/run-workload.ts) is an INCR without its key: call() sends it as is.
      return (target, i) => {
        const args = workload.argsFor(i);
        return args.length === 0 ? target.call('INCR') : target.incr(args[0] as string);
      };
    case 'GET':
      return (target, i) => target.get(key(i));
    case 'SET':
      return (target, i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        return target.set(k, value);
      };
    case 'GET-COMPUTE-SET':
      throw new Error('A GET-COMPUTE-SET step is two commands, the second built from the first reply: it has no single-command method');
  }
}

/** An error reply from Redis (part of the measured run), as opposed to a failed connection. */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}
