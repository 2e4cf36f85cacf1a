// What a client library put on one socket and what came back, read as Redis reads it: the commands
// it wrote (RESP requests, each with its arguments' first bytes) and the reply frames of each `data`
// chunk. A cluster run through ioredis or node-redis (runs/cluster-client-run.ts) does not decide
// where its commands go: the library routes them. So the trace's view of each command — its key, hence
// its slot, the node its socket went to, and the reply Redis sent (a MOVED included, exactly as sent) —
// is read here, from the bytes, not from what Pipescope asked for.
//
// It sits beside the socket probe (socket-probe.ts), which times the same writes and reads: attach
// the tap first and the probe after, detach in the reverse order (each puts back the write() it found).
// Its hooks only keep the chunk; parsing waits for take(), as the probe's counting does. Each `data`
// chunk is one entry of reads(), in the order the probe's reads come, so the two line up one for one.
import type { Socket } from 'node:net';
import { RespReplyParser, type ReplyFrame } from '../protocol/resp-reply-parser.ts';
import { RespRequestParser, type ParsedCommand } from '../protocol/resp-request-parser.ts';

type Chunk = string | Uint8Array;

/** Redis's own default limit on one bulk argument (proto-max-bulk-len, 512 MB). */
const MAX_BULK_BYTES = 512 * 1024 * 1024;

export interface TappedTraffic {
  /** The commands written since the last take(), in the order written. */
  commands: ParsedCommand[];
  /** One entry per `data` chunk since the last take(): the reply frames it completed (push frames included, flagged). */
  reads: ReplyFrame[][];
}

export class WireTap {
  private written: Chunk[] = [];
  private read: Buffer[] = [];
  private readonly requests = new RespRequestParser({ maxBulkBytes: MAX_BULK_BYTES });
  private readonly replies = new RespReplyParser();
  private readonly originalWrite: Socket['write'];
  /** Its own time in its hooks (ns) and the events it kept. */
  private selfNs = 0n;
  private events = 0;
  private readonly onData = (chunk: Buffer | string): void => {
    const entered = process.hrtime.bigint();
    this.read.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    this.events++;
    this.selfNs += process.hrtime.bigint() - entered;
  };

  constructor(private readonly socket: Socket) {
    this.originalWrite = socket.write;
    const write = this.originalWrite as (...args: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      const entered = process.hrtime.bigint();
      const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
      if (typeof chunk === 'string') this.written.push(encoding === 'utf8' || encoding === 'utf-8' ? chunk : Buffer.from(chunk, encoding));
      else if (chunk instanceof Uint8Array) this.written.push(chunk);
      this.events++;
      this.selfNs += process.hrtime.bigint() - entered;
      return write.call(socket, chunk, ...rest) as boolean;
    }) as Socket['write'];
    socket.prependListener('data', this.onData);
  }

  /** Everything written and read since the last take(), parsed now; throws when the bytes are not RESP. */
  take(): TappedTraffic {
    const commands: ParsedCommand[] = [];
    for (const chunk of this.written) {
      const parsed = this.requests.feed(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      if (parsed.error) throw new Error(`The client library wrote bytes that are not a Redis request: ${parsed.error}`);
      commands.push(...parsed.commands);
    }
    const reads: ReplyFrame[][] = [];
    for (const chunk of this.read) {
      const parsed = this.replies.feed(chunk);
      if (parsed.error) throw new Error(parsed.error);
      reads.push(parsed.frames);
    }
    this.written = [];
    this.read = [];
    return { commands, reads };
  }

  /** µs in its hooks, and the events it kept. */
  cost(): { inRunUs: number; events: number } {
    return { inRunUs: Number(this.selfNs) / 1000, events: this.events };
  }

  detach(): void {
    this.socket.write = this.originalWrite;
    this.socket.off('data', this.onData);
  }
}
