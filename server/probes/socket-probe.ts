// Measures a run at the client socket: every write() the client library makes and every `data`
// chunk it receives, with the time (µs since the run's t0) and how many commands or replies the
// bytes completed. It wraps the socket instance, which is exactly where ioredis hands a command or a
// whole pipeline to the kernel (one stream.write per command, one per pipeline). Writes made while
// the socket is corked (a long pipeline handed over in slices, drivers/ioredis-driver.ts) reach the
// kernel together when it is uncorked: they are recorded as one write, at that moment. node-redis
// writes that way always: each batch corked, one write() per piece of each command (a header
// string, a Buffer value, the CRLF after it), uncorked; its head is the first HEAD_BYTES of all the
// pieces together, as they leave, not of the first piece alone.
import type { Socket } from 'node:net';
import type { ProbeBatch } from '../../trace/format/trace-builder.ts';
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { RespFrameCounter } from '../protocol/resp-frame-counter.ts';
import type { RunClock } from '../support/monotonic-clock.ts';

export class SocketProbe {
  private pending: ProbeBatch = emptyBatch();
  private readonly requests = new RespFrameCounter();
  private readonly replies = new RespFrameCounter();
  private readonly originalWrite: Socket['write'];
  private readonly originalUncork: Socket['uncork'];
  /** Writes held while the socket is corked: recorded as one when it is uncorked. */
  private corked: { bytes: number; commands: number; head?: Uint8Array[]; headBytes: number } | undefined;
  /** Commands written so far (corked ones included), and who waits for a count of them (whenWritten). */
  private written = 0;
  private writtenWaiter: { count: number; callback: () => void } | undefined;
  /** Its own time on the run's thread (ns) and the events it timed, since it was attached or last discard(). */
  private selfNs = 0n;
  private events = 0;
  private readonly onData = (chunk: Buffer | string): void => {
    const entered = process.hrtime.bigint();
    const atUs = this.clock.micros(entered);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.pending.reads.push({ atUs, bytes: bytes.length, replies: this.replies.feed(bytes), ...this.headOf(bytes) });
    this.events++;
    this.selfNs += process.hrtime.bigint() - entered;
  };

  /** Watches the socket from now on; times count from the clock's t0 (the run starts it later). */
  constructor(
    private readonly socket: Socket,
    private readonly clock: RunClock,
    /** Keep each chunk's first bytes for the wire view (costs memory and bytes on the wire). */
    private readonly recordHeads = false,
  ) {
    this.originalWrite = socket.write;
    const write = this.originalWrite as (...args: unknown[]) => boolean;
    // Wrapped on the instance only: other sockets, and this one after detach(), are untouched.
    socket.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
      const entered = process.hrtime.bigint();
      const atUs = this.clock.micros(entered);
      const bytes = toBytes(chunk, rest[0]);
      const commands = this.requests.feed(bytes);
      if (socket.writableCorked > 0) {
        const corked = (this.corked ??= { bytes: 0, commands: 0, headBytes: 0, ...(this.recordHeads ? { head: [] } : {}) });
        corked.bytes += bytes.length;
        corked.commands += commands;
        // Enough of the pieces to show HEAD_BYTES and know whether more followed (the "…").
        if (corked.head && corked.headBytes <= HEAD_BYTES) {
          const piece = bytes.subarray(0, HEAD_BYTES + 1 - corked.headBytes);
          corked.head.push(Uint8Array.from(piece)); // a copy: the caller may reuse its buffer
          corked.headBytes += piece.length;
        }
      } else {
        this.pending.writes.push({ atUs, bytes: bytes.length, commands, ...this.headOf(bytes) });
      }
      this.events++;
      this.selfNs += process.hrtime.bigint() - entered; // up to the library's own write: that is not the probe's
      const result = write.call(socket, chunk, ...rest) as boolean;
      this.written += commands;
      const waiter = this.writtenWaiter;
      if (waiter && this.written >= waiter.count) {
        this.writtenWaiter = undefined;
        // Next tick: the client library finishes the call that wrote (ioredis queues a command for its
        // reply after writing it), and a corked socket is still corked, so what it writes then goes last.
        process.nextTick(waiter.callback);
      }
      return result;
    }) as Socket['write'];
    this.originalUncork = socket.uncork;
    socket.uncork = (): void => {
      const atUs = this.clock.micros();
      this.originalUncork.call(socket);
      const corked = this.corked;
      if (corked && socket.writableCorked === 0) {
        this.corked = undefined;
        const { bytes, commands, head } = corked;
        if (!socket.destroyed) this.pending.writes.push({ atUs, bytes, commands, ...(head ? this.headOf(Buffer.concat(head)) : {}) });
      }
    };
    // Prepended, so the time is taken before the client library parses the chunk.
    socket.prependListener('data', this.onData);
  }

  private headOf(bytes: Uint8Array): { head?: string } {
    return this.recordHeads ? { head: escapeBytes(bytes, HEAD_BYTES) } : {};
  }

  /** Calls `callback` once, on the tick after the write that brings the commands written to `count`. */
  whenWritten(count: number, callback: () => void): void {
    this.writtenWaiter = { count, callback };
  }

  /** Reply values are recorded by the runner, in reply order. */
  recordOutcome(outcome: ProbeBatch['outcomes'][number]): void {
    this.pending.outcomes.push(outcome);
  }

  /** Everything recorded since the last take(). */
  take(): ProbeBatch {
    const batch = this.pending;
    this.pending = emptyBatch();
    return batch;
  }

  /**
   * Drops everything seen so far (the warm-up's last commands, sent through the attached probe so that
   * its code is warm at t0) and counts written commands from zero again; returns what it dropped. The
   * frame counters stay: the warm-up's requests and replies were whole.
   */
  discard(): DroppedTraffic {
    const { writes, reads } = this.pending;
    const dropped = { writes: writes.length, reads: reads.length, bytesOut: sum(writes), bytesIn: sum(reads) };
    this.pending = emptyBatch();
    this.written = 0;
    this.selfNs = 0n;
    this.events = 0;
    return dropped;
  }

  /**
   * Its own time on the run's thread since it was attached or discard()ed: µs in its write and read
   * hooks (each timed from its entry to the library's write, or to its return), and the events timed.
   * Its full cost, caches and all, is what `npm run bench` measures side by side.
   */
  cost(): { inRunUs: number; events: number } {
    return { inRunUs: Number(this.selfNs) / 1000, events: this.events };
  }

  detach(): void {
    this.socket.write = this.originalWrite;
    this.socket.uncork = this.originalUncork;
    this.socket.off('data', this.onData);
  }
}

/** What discard() dropped: writes and reads, and their bytes. */
export interface DroppedTraffic {
  writes: number;
  reads: number;
  bytesOut: number;
  bytesIn: number;
}

const sum = (events: readonly { bytes: number }[]) => events.reduce((total, event) => total + event.bytes, 0);

function emptyBatch(): ProbeBatch {
  return { writes: [], reads: [], outcomes: [] };
}

function toBytes(chunk: unknown, encoding: unknown): Uint8Array {
  if (typeof chunk === 'string') return Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
  if (chunk instanceof Uint8Array) return chunk;
  throw new TypeError('SocketProbe: unexpected chunk type written to the socket');
}
