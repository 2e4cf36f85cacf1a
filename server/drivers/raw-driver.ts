// The raw engine: a plain socket, the run's commands encoded into one buffer before t0, each pipeline
// written as one slice of it, and replies read by a small RESP reader as they arrive. It shows what
// the protocol itself can do, and so how much of a run's time is the client library's. Replies are
// handed on (counted, in order) the moment their last byte is read. v3: a plan's batches are encoded
// before t0 too (preparePlan); GET-COMPUTE-SET encodes each SET from its GET's reply (it cannot be
// earlier); auto is refused: it is something a client library does.
import type { Socket } from 'node:net';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { explainConnectError } from '../redis/connect-failure.ts';
import { handshakeCommands, openRawSocket, type RedisTarget } from '../redis/redis-target.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { INLINE_PING, encode, encodeBatch, encodeBatchInSlices, type EncodedBatch } from '../protocol/resp-encoder.ts';
import { RespError, RespReplyReader, type RespValue } from '../protocol/resp-reply-reader.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { outcomeRecorder } from './outcome-recorder.ts';
import { chunks, computeNext, type Workload } from '../protocol/run-workload.ts';
import type { RunDriver, WirePlan } from './run-driver.ts';

/** Records each reply as its outcome: an error reply as its message, anything else as previewReply of it. */
function replyRecorder(record: (o: Outcome) => void): (reply: RespValue) => void {
  const outcomes = outcomeRecorder(record);
  return (reply) => (reply instanceof RespError ? outcomes.error(reply.message) : outcomes.reply(previewReply(reply)));
}

export const RAW_CLIENT = 'raw socket (pre-encoded RESP; PING inline)';

/** Commands encoded between two turns of the event loop in prepare() (before t0). */
const PREPARE_SLICE = 20_000;

interface Waiting {
  remaining: number;
  each: (reply: RespValue) => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

export class RawDriver implements RunDriver {
  readonly client = RAW_CLIENT;
  private readonly reader = new RespReplyReader();
  /** Sends awaiting replies, oldest first (FIFO: replies come back in the order sent). */
  private readonly waiting: Waiting[] = [];
  private failure: Error | undefined;
  private prepared: { workload: Workload; n: number; batch: EncodedBatch } | undefined;
  /** A plan's batches, each encoded into one buffer by preparePlan() before t0. */
  private preparedPlan: { plan: WirePlan; batches: { bytes: Buffer; count: number }[] } | undefined;
  private readonly onReply = (reply: RespValue): void => {
    const waiting = this.waiting[0];
    if (!waiting) return;
    waiting.each(reply);
    if (--waiting.remaining === 0) {
      this.waiting.shift();
      waiting.resolve();
    }
  };

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.reader.feed(chunk, this.onReply));
    const fail = (error: Error) => {
      this.failure = error;
      for (const waiting of this.waiting.splice(0)) waiting.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('Connection closed')));
  }

  /** `name`: the connection's name on Redis (CLIENT SETNAME, as the libraries name theirs), before t0. */
  static async open(target: RedisTarget, name?: string): Promise<RawDriver> {
    const socket = await openRawSocket(target).catch((error: unknown) => {
      throw explainConnectError(error, target);
    });
    const driver = new RawDriver(socket);
    for (const command of handshakeCommands(target, { select: true })) {
      const reply = await driver.one(encode(command));
      if (reply instanceof RespError) {
        driver.disconnect();
        throw explainConnectError(new Error(reply.message), target);
      }
    }
    // A name is a courtesy (CLIENT LIST, MONITOR tell the run apart): a user not allowed to set one still runs.
    if (name) await driver.one(encode(['CLIENT', 'SETNAME', name]));
    return driver;
  }

  /**
   * One socket write; `each` gets the next `count` replies as they are read; resolves after the last.
   * Sends may overlap (the held-connection PING goes behind a pipeline): each waits its turn in order.
   */
  private send(bytes: Buffer, count: number, each: (reply: RespValue) => void): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const done = new Promise<void>((resolve, reject) => this.waiting.push({ remaining: count, each, resolve, reject }));
    this.socket.write(bytes);
    return done;
  }

  /**
   * Pre-encoded commands in one socket write; `each` gets their `count` replies, in order, as they are
   * read (the cluster run's split by node, runs/cluster-run.ts, sends each node its own share this way).
   */
  write(bytes: Buffer, count: number, each: (reply: RespValue) => void): Promise<void> {
    return this.send(bytes, count, each);
  }

  private async one(bytes: Buffer): Promise<RespValue> {
    let value: RespValue = null;
    await this.send(bytes, 1, (reply) => (value = reply));
    return value;
  }

  async ping(): Promise<void> {
    await this.one(INLINE_PING);
  }

  async clientId(): Promise<number> {
    const id = await this.one(encode(['CLIENT', 'ID']));
    if (typeof id !== 'number') throw new Error('CLIENT ID did not answer with a number');
    return id;
  }

  async prepare(workload: Workload, n: number, cancelled: () => boolean): Promise<void> {
    const steps = encodeBatchInSlices(workload, n, PREPARE_SLICE);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        this.prepared = { workload, n, batch: step.value };
        return;
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (cancelled()) throw new RunCancelledError('Run cancelled');
    }
  }

  /** The run's commands, encoded by prepare() before t0 (or now, if it was not called for this run). */
  private batchFor(workload: Workload, n: number): EncodedBatch {
    const prepared = this.prepared;
    if (prepared && prepared.workload === workload && prepared.n === n) return prepared.batch;
    return encodeBatch(workload, n);
  }

  async sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    await this.pipeline(workload, n, 1, record, cancelled);
  }

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean, pauseMs = 0): Promise<void> {
    const { bytes, offsets } = this.batchFor(workload, n);
    const each = replyRecorder(record);
    for (const [from, to] of chunks(n, chunk)) {
      if (from > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      await this.send(bytes.subarray(offsets[from]!, offsets[to]!), to - from, each);
    }
  }

  /** Encodes each batch of the plan into one buffer, before t0, the event loop free between slices. */
  async preparePlan(plan: WirePlan, cancelled: () => boolean): Promise<void> {
    this.preparedPlan = { plan, batches: await this.encodePlan(plan, cancelled) };
  }

  private async encodePlan(plan: WirePlan, cancelled: () => boolean): Promise<{ bytes: Buffer; count: number }[]> {
    const batches: { bytes: Buffer; count: number }[] = [];
    for (const batch of plan.batches()) {
      const parts: Buffer[] = [];
      for (let i = 0; i < batch.length; i++) {
        parts.push(encode([...batch[i]!]));
        if ((i + 1) % PREPARE_SLICE === 0) {
          await new Promise((resolve) => setImmediate(resolve));
          if (cancelled()) throw new RunCancelledError('Run cancelled');
        }
      }
      batches.push({ bytes: Buffer.concat(parts), count: batch.length });
    }
    return batches;
  }

  /** The plan's batches: as preparePlan() encoded them, or encoded now (the warm-up's), leaving the prepared ones alone. */
  async batches(plan: WirePlan, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const batches = this.preparedPlan?.plan === plan ? this.preparedPlan.batches : await this.encodePlan(plan, cancelled);
    const each = replyRecorder(record);
    for (const { bytes, count } of batches) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      await this.send(bytes, count, each);
    }
  }

  async auto(): Promise<void> {
    throw new Error('auto-pipelining is something a client library does; the raw engine has no library: choose ioredis or node-redis for auto');
  }

  /** GET-COMPUTE-SET: each GET written and its reply read, then the SET of computeNext of it: two round trips per step. */
  async dependent(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const each = replyRecorder(record);
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const key = workload.argsFor(i)[0]!;
      let value: RespValue = null;
      await this.send(encode(['GET', key]), 1, (reply) => {
        each(reply);
        value = reply;
      });
      const read = value as RespValue;
      await this.send(encode(['SET', key, computeNext(typeof read === 'string' || typeof read === 'number' ? String(read) : null)]), 1, each);
    }
  }

  disconnect(): void {
    this.prepared = undefined;
    this.preparedPlan = undefined;
    this.socket.destroy();
  }

  abort(): void {
    this.disconnect();
  }
}
