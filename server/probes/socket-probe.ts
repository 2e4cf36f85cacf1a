// Measures a run at the client socket: every write() the client library makes and every `data`
// chunk it receives, with the time (µs since the run's t0) and how many commands or replies the
// bytes completed. It wraps the socket instance, which is exactly where ioredis hands a command or a
// whole pipeline to the kernel (one stream.write per command, one per pipeline). Writes made while
// the socket is corked (a long pipeline handed over in slices, drivers/ioredis-driver.ts) reach the
// kernel together when it is uncorked: they are recorded as one write, at that moment. node-redis
// writes that way always: each batch corked, one write() per piece of each command (a header
// string, a Buffer value, the CRLF after it), uncorked; its head is the first HEAD_BYTES of all the
// pieces together, as they leave, not of the first piece alone.
//
// Its hooks run inside the measured run, so they only take the time and keep the chunk; counting the
// RESP frames, the bytes and the heads waits for take() (a flush, or the end of the run). A chunk is
// kept as the library handed it over: a stream's writer must not change a buffer it passed to write(),
// and each `data` chunk is a buffer of its own. Measured (npm run bench, probe-cost): the hooks cost a
// bare 10-INCR sequential run 1.26× with the counting in them, on this machine. Only a run that waits
// for a count of written commands (whenWritten: the held-connection probe) counts as it goes.
import type { Socket } from 'node:net';
import type { ProbeBatch } from '../../trace/format/trace-builder.ts';
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { RespFrameCounter } from '../protocol/resp-frame-counter.ts';
import type { RunClock } from '../support/monotonic-clock.ts';

type Chunk = string | Uint8Array;

/** A write as the hook saw it: when, what (one chunk, or a corked batch's pieces; strings in UTF-8), and its commands if counted then. */
interface SeenWrite {
  atNs: bigint;
  chunks: Chunk[];
  commands?: number;
}

interface SeenRead {
  atNs: bigint;
  chunk: Chunk;
}

export class SocketProbe {
  private writes: SeenWrite[] = [];
  private reads: SeenRead[] = [];
  private outcomes: ProbeBatch['outcomes'] = [];
  private readonly requests = new RespFrameCounter();
  private readonly replies = new RespFrameCounter();
  private readonly originalWrite: Socket['write'];
  private readonly originalUncork: Socket['uncork'];
  /** Writes held while the socket is corked: recorded as one when it is uncorked. */
  private corked: SeenWrite | undefined;
  /** Commands written so far (counted only once a waiter asks: whenWritten), and who waits for a count of them. */
  private written = 0;
  private writtenWaiter: { count: number; callback: () => void } | undefined;
  /** Counting as it goes: from whenWritten() on, for the rest of the probe's life. */
  private counting = false;
  /** What discard() dropped, not yet counted; and its counts so far. */
  private dropped: { writes: SeenWrite[]; reads: SeenRead[] } = { writes: [], reads: [] };
  private readonly droppedCounts: DroppedTraffic = { writes: 0, reads: 0, bytesOut: 0, bytesIn: 0 };
  /** Its own time on the run's thread (ns) and the events it timed, since it was attached or last discard(). */
  private selfNs = 0n;
  private events = 0;
  private readonly onData = (chunk: Buffer | string): void => {
    const entered = process.hrtime.bigint();
    this.reads.push({ atNs: entered, chunk });
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
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw new TypeError('SocketProbe: unexpected chunk type written to the socket');
      const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : 'utf8';
      const piece = typeof chunk === 'string' && encoding !== 'utf8' && encoding !== 'utf-8' ? Buffer.from(chunk, encoding) : chunk;
      const counted = this.counting ? this.requests.feed(toBytes(piece)) : undefined;
      if (socket.writableCorked > 0) {
        const corked = (this.corked ??= { atNs: 0n, chunks: [] });
        corked.chunks.push(piece);
        if (counted !== undefined || corked.commands !== undefined) corked.commands = (corked.commands ?? 0) + (counted ?? 0);
      } else {
        this.writes.push({ atNs: entered, chunks: [piece], ...(counted === undefined ? {} : { commands: counted }) });
      }
      this.events++;
      this.selfNs += process.hrtime.bigint() - entered; // up to the library's own write: that is not the probe's
      const result = write.call(socket, chunk, ...rest) as boolean;
      if (counted !== undefined) this.countWritten(counted);
      return result;
    }) as Socket['write'];
    this.originalUncork = socket.uncork;
    socket.uncork = (): void => {
      const atNs = process.hrtime.bigint();
      this.originalUncork.call(socket);
      const corked = this.corked;
      if (corked && socket.writableCorked === 0) {
        this.corked = undefined;
        if (!socket.destroyed) this.writes.push({ ...corked, atNs });
      }
    };
    // Prepended, so the time is taken before the client library parses the chunk.
    socket.prependListener('data', this.onData);
  }

  private countWritten(commands: number): void {
    this.written += commands;
    const waiter = this.writtenWaiter;
    if (waiter && this.written >= waiter.count) {
      this.writtenWaiter = undefined;
      // Next tick: the client library finishes the call that wrote (ioredis queues a command for its
      // reply after writing it), and a corked socket is still corked, so what it writes then goes last.
      process.nextTick(waiter.callback);
    }
  }

  /**
   * Calls `callback` once, on the tick after the write that brings the commands written from now on to
   * `count`. Writes are counted as they happen from here on.
   */
  whenWritten(count: number, callback: () => void): void {
    this.written = 0;
    this.counting = true;
    this.writtenWaiter = { count, callback };
  }

  /** Reply values are recorded by the runner, in reply order. */
  recordOutcome(outcome: ProbeBatch['outcomes'][number]): void {
    this.outcomes.push(outcome);
  }

  /** Everything recorded since the last take(), counted now. */
  take(): ProbeBatch {
    this.countDropped();
    const batch: ProbeBatch = { writes: [], reads: [], outcomes: this.outcomes };
    for (const seen of this.writes) {
      const pieces = seen.chunks.map(toBytes);
      let commands = seen.commands;
      if (commands === undefined) {
        commands = 0;
        for (const piece of pieces) commands += this.requests.feed(piece);
      }
      batch.writes.push({ atUs: this.clock.micros(seen.atNs), bytes: byteLength(pieces), commands, ...this.headOf(pieces) });
    }
    for (const seen of this.reads) {
      const bytes = toBytes(seen.chunk);
      batch.reads.push({ atUs: this.clock.micros(seen.atNs), bytes: bytes.length, replies: this.replies.feed(bytes), ...this.headOf([bytes]) });
    }
    this.writes = [];
    this.reads = [];
    this.outcomes = [];
    return batch;
  }

  private headOf(pieces: readonly Uint8Array[]): { head?: string } {
    if (!this.recordHeads) return {};
    // Enough of the pieces to show HEAD_BYTES and know whether more followed (the "…").
    const head: Uint8Array[] = [];
    let bytes = 0;
    for (const piece of pieces) {
      if (bytes > HEAD_BYTES) break;
      head.push(piece.subarray(0, HEAD_BYTES + 1 - bytes));
      bytes += head.at(-1)!.length;
    }
    return { head: escapeBytes(head.length === 1 ? head[0]! : Buffer.concat(head), HEAD_BYTES) };
  }

  /**
   * Drops everything seen so far (the warm-up's last commands, sent through the attached probe so that
   * its code is warm at t0) and counts written commands from zero again, at once: it is the step right
   * before t0. What it dropped is counted later (droppedTraffic), through the frame counters first.
   */
  discard(): void {
    this.dropped.writes.push(...this.writes);
    this.dropped.reads.push(...this.reads);
    this.writes = [];
    this.reads = [];
    this.outcomes = [];
    this.written = 0;
    this.selfNs = 0n;
    this.events = 0;
  }

  /** What discard() dropped (worked out after the run, as everything the hooks keep): writes, reads, bytes. */
  droppedTraffic(): DroppedTraffic {
    this.countDropped();
    return this.droppedCounts;
  }

  /** The dropped events through the frame counters, before any later event: they came first. */
  private countDropped(): void {
    const { writes, reads } = this.dropped;
    if (writes.length === 0 && reads.length === 0) return;
    const counts = this.droppedCounts;
    for (const seen of writes) {
      const pieces = seen.chunks.map(toBytes);
      if (seen.commands === undefined) for (const piece of pieces) this.requests.feed(piece);
      counts.writes++;
      counts.bytesOut += byteLength(pieces);
    }
    for (const seen of reads) {
      const bytes = toBytes(seen.chunk);
      this.replies.feed(bytes);
      counts.reads++;
      counts.bytesIn += bytes.length;
    }
    this.dropped = { writes: [], reads: [] };
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

const byteLength = (pieces: readonly Uint8Array[]) => pieces.reduce((total, piece) => total + piece.length, 0);

function toBytes(chunk: Chunk): Uint8Array {
  return typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
}
