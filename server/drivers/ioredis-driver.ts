// The ioredis engine: the client library people use, one stream.write per command or per pipeline
// (ioredis's Pipeline.execPipeline), replies paired with commands in order. Commands go through
// ioredis's own methods, as its users call them.
import type { Socket } from 'node:net';
import type { ChainableCommander, Redis } from 'ioredis';
import type { Outcome } from '../../trace/trace-builder.ts';
import { chunks, type Workload } from '../protocol/run-workload.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { openConnection } from '../redis/connect-failure.ts';
import { connect, type RedisTarget } from '../redis/redis-target.ts';
import { ioredisVersion } from '../support/recorder-info.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { outcomeRecorder } from './outcome-recorder.ts';
import type { RunDriver } from './run-driver.ts';

/** Who writes the commands: the trace's recorder.client. */
export function ioredisClientName(): string {
  return `ioredis ${ioredisVersion()}`;
}

export class IoredisDriver implements RunDriver {
  private constructor(
    private readonly connection: Redis,
    readonly client: string,
  ) {}

  static async open(target: RedisTarget, name: string): Promise<IoredisDriver> {
    const connection = connect(target, name);
    await openConnection(connection, target);
    return new IoredisDriver(connection, ioredisClientName());
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
