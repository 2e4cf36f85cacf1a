// The two ways a run can put commands on its socket. ioredis: the client library people use, one
// stream.write per command or per pipeline. raw (raw-driver.ts): a plain socket and pre-encoded bytes —
// what the protocol itself does (PING as the inline "PING\r\n" of the docs' netcat example). Both
// expose the socket, so the same probes measure them.
import type { Socket } from 'node:net';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Outcome } from '../trace/trace-builder.ts';
import type { Engine } from '../trace/run-request.ts';
import { RawDriver, RAW_CLIENT } from './raw-driver.ts';
import { RunCancelledError } from './run-cancelled-error.ts';
import { ioredisVersion } from './recorder-info.ts';
import { connect, type RedisTarget } from './redis-target.ts';
import { previewReply } from './reply-preview.ts';
import { outcomeRecorder } from './outcome-recorder.ts';
import { chunks, type Workload } from './run-workload.ts';

export interface RunDriver {
  /** Who wrote the commands, for the trace's recorder.client. */
  readonly client: string;
  readonly socket: Socket;
  ping(): Promise<void>;
  /** The run connection's id on Redis (CLIENT ID), to find it in CLIENT LIST. */
  clientId(): Promise<number>;
  /** Before t0: whatever the engine does ahead of a run (the raw engine encodes all n commands). */
  prepare(workload: Workload, n: number): void;
  /** One command, its reply awaited before the next; outcomes reported in order. */
  sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * Pipelines of `chunk` commands (chunk ≥ n: all n written at once), each pipeline's replies awaited
   * before the next is written; outcomes reported in order.
   */
  pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  disconnect(): void;
}

export async function openDriver(engine: Engine, target: RedisTarget, name: string): Promise<RunDriver> {
  return engine === 'raw' ? RawDriver.open(target) : IoredisDriver.open(target, name);
}

/** Who writes the commands for an engine: the trace's recorder.client. */
export function driverClientName(engine: Engine): string {
  return engine === 'raw' ? RAW_CLIENT : `ioredis ${ioredisVersion()}`;
}

export { RunCancelledError };

class IoredisDriver implements RunDriver {
  private constructor(
    private readonly connection: Redis,
    readonly client: string,
  ) {}

  static async open(target: RedisTarget, name: string): Promise<IoredisDriver> {
    const connection = connect(target, name);
    await connection.connect();
    return new IoredisDriver(connection, driverClientName('ioredis'));
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
  prepare(): void {}

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(workload);
    for (const [from, to] of chunks(n, chunk)) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const pipeline = this.connection.pipeline();
      for (let i = from; i < to; i++) issue(pipeline, i);
      const results = await pipeline.exec();
      if (!results || results.length !== to - from) throw new Error('The pipeline did not return one result per command');
      // Indexed, not destructured: all of a big pipeline's results are recorded here, after its last reply.
      for (let i = 0; i < results.length; i++) {
        const result = results[i]!;
        const error = result[0];
        if (error && !isReplyError(error)) throw error;
        if (isReplyError(error)) outcomes.error(error.message);
        else outcomes.reply(previewReply(result[1]));
      }
    }
  }

  disconnect(): void {
    this.connection.disconnect();
  }
}

/**
 * The i-th command through ioredis's own method for it (ping(), incr(k), set(k, v), get(k)), on the
 * connection or a pipeline: what a user writes, and a little cheaper than the generic call().
 */
function commandMethod(workload: Workload): <T extends Redis | ChainableCommander>(target: T, i: number) => unknown {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'PING':
      return (target) => target.ping();
    case 'INCR':
      return (target, i) => target.incr(key(i));
    case 'GET':
      return (target, i) => target.get(key(i));
    case 'SET':
      return (target, i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        return target.set(k, value);
      };
  }
}

/** An error reply from Redis (part of the measured run), as opposed to a failed connection. */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}
