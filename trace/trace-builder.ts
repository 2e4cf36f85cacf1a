// The one way a trace document comes to be. The recorder feeds it socket probe events as they happen;
// the browser feeds it the same events from the WebSocket; an imported file is replayed through it.
// Each command's times are derived here, by FIFO position, from the writes and reads that carried it,
// and impossible data (a reply before its request, time running backwards) is refused with a message.
import {
  CLIENT_COUNT_SOURCE,
  FORMAT_VERSION,
  TRACE_FORMAT,
  type CommandRecord,
  type Counts,
  type ReplyValue,
  type SocketRead,
  type SocketWrite,
  type TraceDocument,
} from './trace-format.ts';

export interface WriteEvent {
  atUs: number;
  bytes: number;
  /** Commands whose last byte this write carried. */
  commands: number;
}

export interface ReadEvent {
  atUs: number;
  bytes: number;
  /** Replies whose last byte this chunk carried. */
  replies: number;
}

/** What the client library made of a reply, in reply order. */
export type Outcome = { reply: ReplyValue } | { error: string };

/** Events recorded between two flushes, each list in the order it happened. */
export interface ProbeBatch {
  writes: WriteEvent[];
  reads: ReadEvent[];
  outcomes: Outcome[];
}

export type Recorder = TraceDocument['recorder'];
/** What is known when a run starts, before its first event: the document minus its measurements. */
export type TraceHeader = Pick<TraceDocument, 'run' | 'redis' | 'rtt' | 'recorder'>;
export type ServerCounts = Counts['server'];

export interface TraceProgress {
  n: number;
  sent: number;
  replied: number;
  /** Time of the latest event seen, µs since t0. */
  lastUs: number;
}

export class TraceError extends Error {
  override name = 'TraceError';
}

export class TraceBuilder {
  private readonly sentUs: number[] = [];
  private readonly repliedUs: number[] = [];
  private readonly outcomes: Outcome[] = [];
  private readonly writes: SocketWrite[] = [];
  private readonly reads: SocketRead[] = [];
  private bytesOut = 0;
  private bytesIn = 0;

  readonly header: TraceHeader;

  constructor(header: TraceHeader) {
    // Copied field by field: the header may arrive inside a larger message.
    this.header = { run: header.run, redis: header.redis, rtt: header.rtt, recorder: header.recorder };
  }

  get run(): TraceHeader['run'] {
    return this.header.run;
  }

  /** Writes before reads: a read in this batch can only complete commands written by now. */
  addBatch(batch: ProbeBatch): void {
    for (const write of batch.writes) this.addWrite(write);
    for (const read of batch.reads) this.addRead(read);
    for (const outcome of batch.outcomes) this.addOutcome(outcome);
  }

  addWrite({ atUs, bytes, commands }: WriteEvent): void {
    const previous = this.writes.at(-1);
    if (previous && atUs < previous.atUs) {
      throw new TraceError(`Socket writes out of order: ${atUs} µs after ${previous.atUs} µs.`);
    }
    const firstCommand = this.sentUs.length;
    if (firstCommand + commands > this.run.n) {
      throw new TraceError(`Write at ${atUs} µs carries command ${firstCommand + commands - 1}, but the run has only ${this.run.n}.`);
    }
    for (let i = 0; i < commands; i++) this.sentUs.push(atUs);
    this.writes.push({ atUs, bytes, firstCommand, commands });
    this.bytesOut += bytes;
  }

  addRead({ atUs, bytes, replies }: ReadEvent): void {
    const previous = this.reads.at(-1);
    if (previous && atUs < previous.atUs) {
      throw new TraceError(`Socket reads out of order: ${atUs} µs after ${previous.atUs} µs.`);
    }
    const firstReply = this.repliedUs.length;
    for (let i = firstReply; i < firstReply + replies; i++) {
      const sentAt = this.sentUs[i];
      if (sentAt === undefined) {
        throw new TraceError(`Reply ${i} arrived at ${atUs} µs, before command ${i} was written.`);
      }
      if (sentAt > atUs) {
        throw new TraceError(`Reply ${i} arrived at ${atUs} µs, before its request was written at ${sentAt} µs.`);
      }
      this.repliedUs.push(atUs);
    }
    this.reads.push({ atUs, bytes, firstReply, replies });
    this.bytesIn += bytes;
  }

  addOutcome(outcome: Outcome): void {
    if (this.outcomes.length >= this.run.n) {
      throw new TraceError(`More replies than the run's ${this.run.n} commands.`);
    }
    this.outcomes.push(outcome);
  }

  get progress(): TraceProgress {
    const lastUs = Math.max(this.writes.at(-1)?.atUs ?? 0, this.reads.at(-1)?.atUs ?? 0);
    return { n: this.run.n, sent: this.sentUs.length, replied: this.repliedUs.length, lastUs };
  }

  finish(server: ServerCounts): TraceDocument {
    const { n } = this.run;
    if (this.sentUs.length !== n) throw new TraceError(`Only ${this.sentUs.length} of ${n} commands were written.`);
    if (this.repliedUs.length !== n) throw new TraceError(`Only ${this.repliedUs.length} of ${n} replies arrived.`);
    if (this.outcomes.length !== n) throw new TraceError(`Only ${this.outcomes.length} of ${n} reply values were recorded.`);
    const commands: CommandRecord[] = this.outcomes.map((outcome, index) => ({
      index,
      sentUs: this.sentUs[index]!,
      repliedUs: this.repliedUs[index]!,
      ...outcome,
    }));
    const durationUs = this.repliedUs[n - 1]!;
    return {
      format: TRACE_FORMAT,
      version: FORMAT_VERSION,
      ...this.header,
      commands,
      writes: this.writes,
      reads: this.reads,
      counts: {
        client: {
          writes: this.writes.length,
          reads: this.reads.length,
          bytesOut: this.bytesOut,
          bytesIn: this.bytesIn,
          source: CLIENT_COUNT_SOURCE,
        },
        // Spelled out so that key order, and so the exported text, never depends on the caller.
        server: { reads: server.reads, writes: server.writes, source: server.source, exclusive: server.exclusive },
      },
      totals: { durationUs, opsPerSec: durationUs > 0 ? (n * 1e6) / durationUs : 0 },
    };
  }
}
