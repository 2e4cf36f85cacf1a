// The two ways a run can put commands on its socket. ioredis: the client library people use, one
// stream.write per command or per pipeline. raw: a plain socket and pre-encoded bytes — what the
// protocol itself does (PING as the inline "PING\r\n" of the docs' netcat example). Both expose the
// socket, so the same probes measure them.
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import type { Outcome } from '../trace/trace-builder.ts';
import type { Engine } from '../trace/run-request.ts';
import { ioredisVersion } from './recorder-info.ts';
import { connect, handshakeCommands, openRawSocket, type RedisTarget } from './redis-target.ts';
import { previewReply } from './reply-preview.ts';
import { RespError, RespReplyReader, type RespValue } from './resp-reply-reader.ts';
import type { Workload } from './run-workload.ts';

export interface RunDriver {
  /** Who wrote the commands, for the trace's recorder.client. */
  readonly client: string;
  readonly socket: Socket;
  ping(): Promise<void>;
  /** The run connection's id on Redis (CLIENT ID), to find it in CLIENT LIST. */
  clientId(): Promise<number>;
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

const RAW_CLIENT = 'raw socket (pre-encoded RESP; PING inline)';

export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
}

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
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      try {
        record({ reply: previewReply(await this.connection.call(workload.command, ...workload.argsFor(i))) });
      } catch (error) {
        if (!isReplyError(error)) throw error;
        record({ error: error.message });
      }
    }
  }

  async clientId(): Promise<number> {
    return Number(await this.connection.client('ID'));
  }

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    for (const [from, to] of chunks(n, chunk)) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const pipeline = this.connection.pipeline();
      for (let i = from; i < to; i++) pipeline.call(workload.command, ...workload.argsFor(i));
      const results = await pipeline.exec();
      if (!results || results.length !== to - from) throw new Error('The pipeline did not return one result per command');
      for (const [error, value] of results) {
        if (error && !isReplyError(error)) throw error;
        record(isReplyError(error) ? { error: error.message } : { reply: previewReply(value) });
      }
    }
  }

  disconnect(): void {
    this.connection.disconnect();
  }
}

/** An error reply from Redis (part of the measured run), as opposed to a failed connection. */
function isReplyError(error: unknown): error is Error {
  return error instanceof Error && error.name === 'ReplyError';
}

class RawDriver implements RunDriver {
  readonly client = RAW_CLIENT;
  private readonly reader = new RespReplyReader();
  private waiting: { count: number; values: RespValue[]; resolve: (v: RespValue[]) => void; reject: (e: Error) => void } | undefined;
  private failure: Error | undefined;

  private constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => this.onReplies(this.reader.feed(chunk)));
    const fail = (error: Error) => {
      this.failure = error;
      this.waiting?.reject(error);
      this.waiting = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('Connection closed')));
  }

  static async open(target: RedisTarget): Promise<RawDriver> {
    const driver = new RawDriver(await openRawSocket(target));
    for (const command of handshakeCommands(target, { select: true })) await driver.expectOk(encode(command));
    return driver;
  }

  private async expectOk(bytes: Buffer): Promise<void> {
    const [reply] = await this.send(bytes, 1);
    if (reply instanceof RespError) throw new Error(reply.message);
  }

  private onReplies(values: RespValue[]): void {
    const waiting = this.waiting;
    if (!waiting) return;
    waiting.values.push(...values);
    if (waiting.values.length >= waiting.count) {
      this.waiting = undefined;
      waiting.resolve(waiting.values);
    }
  }

  /** One socket write; resolves with the next `count` replies. */
  private send(bytes: Buffer, count: number): Promise<RespValue[]> {
    if (this.failure) return Promise.reject(this.failure);
    const replies = new Promise<RespValue[]>((resolve, reject) => (this.waiting = { count, values: [], resolve, reject }));
    this.socket.write(bytes);
    return replies;
  }

  async ping(): Promise<void> {
    await this.send(INLINE_PING, 1);
  }

  async sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const [reply] = await this.send(encodeCommand(workload, i), 1);
      record(outcomeOf(reply!));
    }
  }

  async clientId(): Promise<number> {
    const [id] = await this.send(encode(['CLIENT', 'ID']), 1);
    if (typeof id !== 'number') throw new Error('CLIENT ID did not answer with a number');
    return id;
  }

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    for (const [from, to] of chunks(n, chunk)) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const bytes = Buffer.concat(Array.from({ length: to - from }, (_, i) => encodeCommand(workload, from + i)));
      for (const reply of await this.send(bytes, to - from)) record(outcomeOf(reply));
    }
  }

  disconnect(): void {
    this.socket.destroy();
  }
}

/** [from, to) index ranges of at most `size` commands covering 0..n. */
export function* chunks(n: number, size: number): Generator<[number, number]> {
  for (let from = 0; from < n; from += size) yield [from, Math.min(n, from + size)];
}

const INLINE_PING = Buffer.from('PING\r\n');

function encodeCommand(workload: Workload, index: number): Buffer {
  return workload.command === 'PING' ? INLINE_PING : encode([workload.command, ...workload.argsFor(index)]);
}

export function encode(args: (string | Buffer)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = typeof arg === 'string' ? Buffer.from(arg) : arg;
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

function outcomeOf(reply: RespValue): Outcome {
  return reply instanceof RespError ? { error: reply.message } : { reply: previewReply(Array.isArray(reply) ? JSON.stringify(reply) : reply) };
}
