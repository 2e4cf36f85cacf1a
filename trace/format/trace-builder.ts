// The one way a trace document comes to be. The recorder feeds it socket probe events as they happen;
// the browser feeds it the same events from the WebSocket; an imported file is replayed through it.
// Each command's times are derived here, by FIFO position, from the writes and reads that carried it,
// and impossible data (a reply before its request, time running backwards) is refused with a message.
// A cluster run's writes and reads name their socket (`connection`): writes still complete commands in
// one order across the run, and each socket's reads answer that socket's commands in its own order
// (SocketQueues); a run without sockets is matched in one FIFO order, exactly as before.
import {
  CLIENT_COUNT_SOURCE,
  FORMAT_VERSION,
  TRACE_FORMAT,
  type CommandRecord,
  type Counts,
  type HeldConnection,
  type Incomplete,
  type KernelTcp,
  type KeysAfter,
  type Memory,
  type Neighbor,
  type ProbeCosts,
  type ReplyValue,
  type RunInfo,
  type ServerCpu,
  type ServerTrace,
  type SocketRead,
  type SocketWrite,
  type TraceDocument,
} from './trace-format.ts';
import type { ClusterRecord } from './cluster-format.ts';
import { completedOperations, workCommandCount } from './wire-layout.ts';

export interface WriteEvent {
  atUs: number;
  bytes: number;
  /** Commands whose last byte this write carried. */
  commands: number;
  /** The first bytes, escaped, when the run records them (server-traced and raw-engine runs). */
  head?: string;
  /** Cluster runs: the socket (index in cluster.connections). */
  connection?: number;
}

export interface ReadEvent {
  atUs: number;
  bytes: number;
  /** Replies whose last byte this chunk carried. */
  replies: number;
  head?: string;
  /** Cluster runs: the socket (index in cluster.connections). */
  connection?: number;
}

/** What the client library made of a reply, in reply order. */
export type Outcome = { reply: ReplyValue } | { error: string };

/** Events recorded between two flushes, each list in the order it happened. */
export interface ProbeBatch {
  writes: WriteEvent[];
  reads: ReadEvent[];
  outcomes: Outcome[];
  /** Delay-proxy runs only: chunks the proxy wrote to Redis (commands) and read from it (replies). */
  toServer?: WriteEvent[];
  fromServer?: ReadEvent[];
  /**
   * Cluster runs that follow redirects: commands added on the wire since the last batch, before this
   * batch's writes carry them (run.redirectCommands): resends, and the positions of ASKING commands.
   */
  added?: { resent: number; asking: number[] };
}

export type Recorder = TraceDocument['recorder'];
/** What is known when a run starts, before its first event: the document minus its measurements. */
export type TraceHeader = Pick<TraceDocument, 'run' | 'redis' | 'rtt' | 'recorder'>;
export type ServerCounts = Counts['server'];

/** A server-traced run's Redis-side record, known once the run is over. */
export interface ServerSide {
  trace: ServerTrace;
  /**
   * When Redis executed each command, in command order (µs since t0, client clock); null without
   * MONITOR. v3: an entry is null for a command Redis never executed (rejected while queueing, or
   * queued in a transaction that EXECABORT discarded): MONITOR has no line for it.
   */
  serverUs: (number | null)[] | null;
}

/** What finish() needs besides the socket events, all known once the run is over. */
export interface RunClosing {
  /** Server-traced runs: the Redis side. */
  serverSide?: ServerSide | null;
  memory?: Memory | null;
  /** µs since t0 when the client's call returned; the last reply's arrival when not measured. */
  doneUs?: number;
  kernelTcp?: KernelTcp | null;
  /** v3: the run's keys read back after it (see KeysAfterSchema). */
  keysAfter?: KeysAfter | null;
  /** v3: the neighbour client's commands, when one ran alongside. */
  neighbor?: Neighbor | null;
  /** v3: the held-connection probe's two PINGs. */
  heldConnection?: HeldConnection | null;
  /** Redis's CPU time over the run (optional in the document). */
  serverCpu?: ServerCpu | null;
  /** Which probes ran and what each cost the run (optional in the document). */
  probeCosts?: ProbeCosts | null;
  /** A run against a Redis Cluster: its topology, sockets and redirects (optional in the document; cluster-format.ts). */
  cluster?: ClusterRecord | null;
  /**
   * Import only: the file's own command records, kept as the document's instead of building equal ones
   * anew (a big trace's import spent its time there); the caller compares each with `times` before it
   * trusts them.
   */
  adoptCommands?: CommandRecord[];
}

export interface TraceProgress {
  n: number;
  sent: number;
  replied: number;
  /** Time of the latest event seen, µs since t0. */
  lastUs: number;
}

/** What a partial document says of itself besides how far the run got (which the builder knows). */
export type IncompleteMark = Pick<Incomplete, 'reason' | 'message' | 'omitted'>;

/** INFO deltas not measured (redis-info omitted): zeros, and never claimed exclusive. */
export const UNMEASURED_SERVER_COUNTS: ServerCounts = { reads: 0, writes: 0, execUs: 0, source: 'redis-info', exclusive: false };

export class TraceError extends Error {
  override name = 'TraceError';
}

interface Chunk {
  atUs: number;
  bytes: number;
  head: string | undefined;
  first: number;
  count: number;
  /** Cluster runs: the socket that carried it. */
  connection: number | undefined;
}

/**
 * One place where a command (or its reply) passes: the client's writes, the proxy's hand-over to
 * Redis, the proxy's receipt from Redis, the client's reads. Chunks complete commands in FIFO order,
 * and each command must have passed the stage before at an earlier or equal time.
 */
class Stage {
  /** When each command (or reply) passed, by index; the first `count` are set. */
  times: Float64Array;
  count = 0;
  readonly chunks: Chunk[] = [];
  bytes = 0;

  constructor(
    private n: number,
    private readonly outOfOrder: string,
    private readonly overflow: (atUs: number, index: number, n: number) => string,
    private before: Stage | null,
    private tooEarly: (index: number, atUs: number, previousUs: number | undefined) => string,
  ) {
    this.times = new Float64Array(n);
  }

  /** A cluster run's redirects added commands: room for `n` in all. */
  grow(n: number): void {
    this.n = n;
    if (n <= this.times.length) return;
    const times = new Float64Array(Math.max(n, this.times.length * 2));
    times.set(this.times);
    this.times = times;
  }

  /** Puts another stage in between: from now on, commands must have passed `stage` first. */
  follow(stage: Stage, tooEarly: Stage['tooEarly']): void {
    this.before = stage;
    this.tooEarly = tooEarly;
  }

  add(atUs: number, bytes: number, count: number, head?: string, connection?: number): Chunk {
    const previous = this.chunks.at(-1);
    if (previous && atUs < previous.atUs) throw new TraceError(`${this.outOfOrder} out of order: ${atUs} µs after ${previous.atUs} µs.`);
    const first = this.count;
    const end = first + count;
    if (end > this.n) throw new TraceError(this.overflow(atUs, end - 1, this.n));
    // The stage before holds non-decreasing times, so its last command of this chunk is its latest:
    // when that one passed in time, all did. Only a failure looks for the first command that did not.
    const before = this.before;
    if (before && count > 0 && (end > before.count || before.times[end - 1]! > atUs)) {
      for (let i = first; i < end; i++) {
        const previousUs = i < before.count ? before.times[i] : undefined;
        if (previousUs === undefined || previousUs > atUs) throw new TraceError(this.tooEarly(i, atUs, previousUs));
      }
    }
    this.times.fill(atUs, first, end);
    this.count = end;
    const chunk = { atUs, bytes, head, first, count, connection };
    this.chunks.push(chunk);
    this.bytes += bytes;
    return chunk;
  }

  /**
   * A cluster run's read on one socket: it completes `answered` (command indices, ascending, that socket's
   * next ones: SocketQueues), each of which must have been written at or before `atUs`.
   */
  addAnswers(atUs: number, bytes: number, first: number, answered: Int32Array, head: string | undefined, connection: number): Chunk {
    const previous = this.chunks.at(-1);
    if (previous && atUs < previous.atUs) throw new TraceError(`${this.outOfOrder} out of order: ${atUs} µs after ${previous.atUs} µs.`);
    const before = this.before!;
    for (const i of answered) {
      const previousUs = i < before.count ? before.times[i] : undefined;
      if (previousUs === undefined || previousUs > atUs) throw new TraceError(this.tooEarly(i, atUs, previousUs));
      this.times[i] = atUs;
    }
    this.count += answered.length;
    const chunk = { atUs, bytes, head, first, count: answered.length, connection };
    this.chunks.push(chunk);
    this.bytes += bytes;
    return chunk;
  }

  get lastUs(): number {
    return this.chunks.at(-1)?.atUs ?? 0;
  }
}

/**
 * A cluster run's sockets: which commands each write put on which socket, and so which commands each
 * socket's next reply answers (a socket answers its own commands in the order they were written on it).
 * Memory: one Int32 and one byte per command, allocated only for a run whose writes name their socket.
 */
class SocketQueues {
  /** Each socket's commands in the order written, and how many of them have been answered. */
  private readonly queues = new Map<number, { commands: number[]; answered: number }>();
  /** 1 once a command's reply arrived. */
  private done: Uint8Array;
  /** Commands of the run (grows when redirects add some). */
  private n: number;
  /** Commands 0 … settled - 1 all have their replies. */
  settled = 0;

  constructor(
    n: number,
    private readonly replied: Stage,
  ) {
    this.n = n;
    this.done = new Uint8Array(n);
  }

  grow(n: number): void {
    this.n = n;
    if (n <= this.done.length) return;
    const done = new Uint8Array(Math.max(n, this.done.length * 2));
    done.set(this.done);
    this.done = done;
  }

  written(connection: number, first: number, count: number): void {
    let queue = this.queues.get(connection);
    if (!queue) this.queues.set(connection, (queue = { commands: [], answered: 0 }));
    for (let i = first; i < first + count; i++) queue.commands.push(i);
  }

  /** The command the socket's next reply answers; the run's n when none is waiting (a read of no reply). */
  next(connection: number): number {
    const queue = this.queues.get(connection);
    return queue && queue.answered < queue.commands.length ? queue.commands[queue.answered]! : this.n;
  }

  /** The commands a read of `replies` on `connection` answers, in order; refused when more than were written on it. */
  answered(connection: number, replies: number, atUs: number): Int32Array {
    const queue = this.queues.get(connection) ?? { commands: [], answered: 0 };
    const waiting = queue.commands.length - queue.answered;
    if (replies > waiting) {
      throw new TraceError(`Read at ${atUs} µs on socket ${connection} completes ${replies} replies, but only ${waiting} of its commands were waiting for one (${this.replied.count} replies so far).`);
    }
    const answered = Int32Array.from(queue.commands.slice(queue.answered, queue.answered + replies));
    queue.answered += replies;
    for (const i of answered) this.done[i] = 1;
    while (this.settled < this.n && this.done[this.settled] === 1) this.settled++;
    return answered;
  }
}

/** The latest of the first `count` times. */
function latest(times: Float64Array, count: number): number {
  let max = 0;
  for (let i = 0; i < count; i++) if (times[i]! > max) max = times[i]!;
  return max;
}

export class TraceBuilder {
  readonly header: TraceHeader;
  /** Each reply's outcome by index; the first outcomeCount are set (allocated once: pushing was slower). */
  private readonly outcomes: Outcome[];
  private outcomeCount = 0;
  private readonly sent: Stage;
  private readonly replied: Stage;
  /** Present once the first proxy event arrives: the run went through the delay proxy. */
  private proxy: { toServer: Stage; fromServer: Stage } | undefined;
  /** Decided by the first write: a cluster run's writes and reads name their socket (then present), a single Redis's never. */
  private socketed: boolean | undefined;
  private sockets: SocketQueues | undefined;
  /**
   * partial()'s records so far, extended in place as events arrive: a listed command's record, like a
   * chunk, never changes, so each snapshot builds only what is new (then copies the arrays, ~1 ms per
   * 100,000 entries) instead of every record again.
   */
  private readonly listed = { commands: [] as CommandRecord[], writes: [] as SocketWrite[], reads: [] as SocketRead[], toServer: [] as SocketWrite[], fromServer: [] as SocketRead[] };

  constructor(header: TraceHeader) {
    // Copied field by field: the header may arrive inside a larger message.
    this.header = { run: canonicalRun(header.run), redis: header.redis, rtt: header.rtt, recorder: header.recorder };
    const { n, mode, chunk } = header.run;
    this.outcomes = new Array<Outcome>(n);
    if ((mode === 'chunked') !== (chunk !== undefined)) {
      throw new TraceError(mode === 'chunked' ? 'A chunked run must say its chunk size (run.chunk).' : `A ${mode} run has no chunk size; run.chunk is for chunked runs.`);
    }
    this.sent = new Stage(n, 'Socket writes',
      (atUs, index, total) => `Write at ${atUs} µs carries command ${index}, but the run has only ${total}.`, null, () => '');
    this.replied = new Stage(n, 'Socket reads',
      (atUs, index, total) => `Read at ${atUs} µs completes reply ${index}, but the run has only ${total}.`,
      this.sent,
      (index, atUs, sentUs) => sentUs === undefined
        ? `Reply ${index} arrived at ${atUs} µs, before command ${index} was written.`
        : `Reply ${index} arrived at ${atUs} µs, before its request was written at ${sentUs} µs.`);
  }

  get run(): TraceHeader['run'] {
    return this.header.run;
  }

  /** Writes first, then the proxy's hops, then reads: each can only complete what came before it. */
  addBatch(batch: ProbeBatch): void {
    if (batch.added) this.addRedirectCommands(batch.added);
    for (const write of batch.writes) this.addWrite(write);
    for (const hop of batch.toServer ?? []) this.addProxyToServer(hop);
    for (const hop of batch.fromServer ?? []) this.addProxyFromServer(hop);
    for (const read of batch.reads) this.addRead(read);
    const { outcomes } = batch;
    if (this.outcomeCount + outcomes.length > this.run.n) this.tooManyOutcomes();
    for (let i = 0; i < outcomes.length; i++) this.outcomes[this.outcomeCount++] = outcomes[i]!;
  }

  /**
   * A cluster run followed redirects: `resent` commands sent again and ASKING at `asking` (positions) join the
   * run's wire commands (run.n and run.redirectCommands grow), before the writes that carry them.
   */
  addRedirectCommands({ resent, asking }: { resent: number; asking: readonly number[] }): void {
    if (this.proxy || this.socketed === false) throw new TraceError('Only a cluster run follows redirects: its writes and reads name their socket.');
    const run = this.header.run as RunInfo;
    const known = run.redirectCommands ?? { resent: 0, asking: [] };
    const last = known.asking.at(-1) ?? -1;
    if (asking.some((at, i) => at <= (i === 0 ? last : asking[i - 1]!))) throw new TraceError('ASKING positions must ascend.');
    const n = run.n + resent + asking.length;
    run.redirectCommands = { resent: known.resent + resent, asking: [...known.asking, ...asking] };
    run.n = n;
    this.sent.grow(n);
    this.replied.grow(n);
    this.sockets?.grow(n);
  }

  addWrite({ atUs, bytes, commands, head, connection }: WriteEvent): void {
    this.checkSocket('Write', atUs, connection);
    const chunk = this.sent.add(atUs, bytes, commands, head, connection);
    if (connection !== undefined) this.sockets!.written(connection, chunk.first, chunk.count);
  }

  addRead({ atUs, bytes, replies, head, connection }: ReadEvent): void {
    this.checkSocket('Read', atUs, connection);
    if (connection === undefined) this.replied.add(atUs, bytes, replies, head, connection);
    else {
      const first = this.sockets!.next(connection);
      this.replied.addAnswers(atUs, bytes, first, this.sockets!.answered(connection, replies, atUs), head, connection);
    }
  }

  /** Every write and read names its socket (a cluster run) or none does (a single Redis): the first write decides. */
  private checkSocket(what: 'Write' | 'Read', atUs: number, connection: number | undefined): void {
    const named = connection !== undefined;
    if (this.socketed === undefined) {
      if (what === 'Read' && named) throw new TraceError(`Read at ${atUs} µs on socket ${connection} arrived before any write.`);
      this.socketed = named;
      if (named) {
        if (this.proxy) throw new TraceError('A run through the delay proxy has one socket: its writes and reads name none.');
        this.sockets = new SocketQueues(this.run.n, this.replied);
      }
    } else if (this.socketed !== named) {
      throw new TraceError(`${what} at ${atUs} µs ${named ? 'names a socket' : 'names no socket'}, but the run's first write ${this.socketed ? 'did' : 'did not'}: a cluster run's writes and reads all name theirs, a single Redis's none.`);
    }
  }

  addProxyToServer({ atUs, bytes, commands, head, connection }: WriteEvent): void {
    this.proxyStages().toServer.add(atUs, bytes, commands, head, connection);
  }

  addProxyFromServer({ atUs, bytes, replies, head, connection }: ReadEvent): void {
    this.proxyStages().fromServer.add(atUs, bytes, replies, head, connection);
  }

  addOutcome(outcome: Outcome): void {
    if (this.outcomeCount >= this.run.n) this.tooManyOutcomes();
    this.outcomes[this.outcomeCount++] = outcome;
  }

  private tooManyOutcomes(): never {
    throw new TraceError(`More replies than the run's ${this.run.n} commands.`);
  }

  get progress(): TraceProgress {
    return { n: this.run.n, sent: this.sent.count, replied: this.replied.count, lastUs: Math.max(this.sent.lastUs, this.replied.lastUs) };
  }

  /** How many commands, from the first, have their replies: all that arrived on one socket, or a cluster run's leading run of answered commands. */
  private get settled(): number {
    return this.sockets ? this.sockets.settled : this.replied.count;
  }

  /** When each command passed each stage (µs since t0), as derived so far; read-only views. */
  get times(): { sentUs: Float64Array; repliedUs: Float64Array; toServerUs: Float64Array | null; fromServerUs: Float64Array | null } {
    const view = (stage: Stage) => stage.times.subarray(0, stage.count);
    return {
      sentUs: view(this.sent),
      repliedUs: this.replied.times.subarray(0, this.settled),
      toServerUs: this.proxy ? view(this.proxy.toServer) : null,
      fromServerUs: this.proxy ? view(this.proxy.fromServer) : null,
    };
  }

  /** The document. */
  finish(server: ServerCounts, closing: RunClosing = {}): TraceDocument {
    const serverSide = closing.serverSide ?? null;
    this.checkComplete(serverSide);
    const { n } = this.run;
    const proxy = this.proxy;
    const commands = closing.adoptCommands ?? commandRecords(this.outcomes, this.sent.times, this.replied.times, proxy ?? null, serverSide?.serverUs ?? null);
    // One socket answers in order, so its last reply is its latest; a cluster run's latest may be any command's.
    const durationUs = this.sockets ? latest(this.replied.times, n) : this.replied.times[n - 1]!;
    const doneUs = closing.doneUs ?? durationUs;
    if (doneUs < durationUs) throw new TraceError(`The client's call returned at ${doneUs} µs, before its last reply arrived at ${durationUs} µs.`);
    return {
      format: TRACE_FORMAT,
      version: FORMAT_VERSION,
      ...this.header,
      commands,
      writes: this.sent.chunks.map(asWrite),
      reads: this.replied.chunks.map(asRead),
      proxy: proxy ? { toServer: proxy.toServer.chunks.map(asWrite), fromServer: proxy.fromServer.chunks.map(asRead) } : null,
      serverTrace: serverSide ? serverSide.trace : null,
      counts: {
        client: {
          writes: this.sent.chunks.length,
          reads: this.replied.chunks.length,
          bytesOut: this.sent.bytes,
          bytesIn: this.replied.bytes,
          source: CLIENT_COUNT_SOURCE,
        },
        // Spelled out so that key order, and so the exported text, never depends on the caller.
        server: { reads: server.reads, writes: server.writes, execUs: server.execUs, source: server.source, exclusive: server.exclusive },
      },
      totals: { durationUs, opsPerSec: durationUs > 0 ? (this.run.operations * 1e6) / durationUs : 0, doneUs },
      memory: closing.memory ?? null,
      kernelTcp: closing.kernelTcp ?? null,
      keysAfter: closing.keysAfter ?? null,
      neighbor: closing.neighbor ?? null,
      heldConnection: closing.heldConnection ?? null,
      incomplete: null,
      ...(closing.serverCpu ? { serverCpu: closing.serverCpu } : {}),
      ...(closing.probeCosts ? { probeCosts: closing.probeCosts } : {}),
      ...(closing.cluster ? { cluster: closing.cluster } : {}),
    };
  }

  /**
   * v4. A valid document of the run as far as it got, marked incomplete (IncompleteSchema): the commands
   * whose replies arrived and were recorded, every write and read so far, totals over what was measured.
   * It leaves the builder as it was, so a live run can be drawn while it streams and finished after.
   * Server-side records need the whole run: no server trace; `server` only when INFO was measured.
   */
  partial(mark: IncompleteMark, closing: RunClosing = {}, server: ServerCounts | null = null): TraceDocument {
    const listed = Math.min(this.settled, this.outcomeCount);
    const proxy = this.proxy;
    const cache = this.listed;
    for (let i = cache.commands.length; i < listed; i++) cache.commands.push(commandRecord(i, this.outcomes[i]!, this.sent.times, this.replied.times, proxy ?? null, null));
    extend(cache.writes, this.sent.chunks, asWrite);
    extend(cache.reads, this.replied.chunks, asRead);
    if (proxy) {
      extend(cache.toServer, proxy.toServer.chunks, asWrite);
      extend(cache.fromServer, proxy.fromServer.chunks, asRead);
    }
    const durationUs = listed === 0 ? 0 : this.sockets ? latest(this.replied.times, listed) : this.replied.times[listed - 1]!;
    const operations = completedOperations(this.run, listed);
    const omitted = new Set(mark.omitted);
    const kept = <T>(what: (typeof mark.omitted)[number], value: T | null | undefined): T | null => (omitted.has(what) ? null : value ?? null);
    const counts = server ?? UNMEASURED_SERVER_COUNTS;
    return {
      format: TRACE_FORMAT,
      version: FORMAT_VERSION,
      ...this.header,
      commands: cache.commands.slice(),
      writes: cache.writes.slice(),
      reads: cache.reads.slice(),
      proxy: proxy ? { toServer: cache.toServer.slice(), fromServer: cache.fromServer.slice() } : null,
      serverTrace: null,
      counts: {
        client: { writes: this.sent.chunks.length, reads: this.replied.chunks.length, bytesOut: this.sent.bytes, bytesIn: this.replied.bytes, source: CLIENT_COUNT_SOURCE },
        server: { reads: counts.reads, writes: counts.writes, execUs: counts.execUs, source: counts.source, exclusive: counts.exclusive },
      },
      totals: { durationUs, opsPerSec: durationUs > 0 ? (operations * 1e6) / durationUs : 0, doneUs: durationUs },
      memory: kept('memory', closing.memory),
      kernelTcp: kept('kernel-tcp', closing.kernelTcp),
      keysAfter: kept('keys-after', closing.keysAfter),
      neighbor: kept('neighbor', closing.neighbor),
      heldConnection: kept('held-connection', closing.heldConnection),
      incomplete: {
        reason: mark.reason,
        ...(mark.message === undefined ? {} : { message: mark.message }),
        sent: this.sent.count,
        replied: this.replied.count,
        omitted: [...mark.omitted],
      },
      ...(closing.cluster ? { cluster: closing.cluster } : {}),
    };
  }

  /**
   * Throws what finish() would refuse: a command not written, a reply not arrived or not recorded, a
   * proxy hop missing, an execution time out of place. A live run checks this before it announces
   * its end, and assembles its document after.
   */
  checkComplete(serverSide: ServerSide | null = null): void {
    const { n } = this.run;
    if (this.sent.count !== n) throw new TraceError(`Only ${this.sent.count} of ${n} commands were written.`);
    if (this.replied.count !== n) throw new TraceError(`Only ${this.replied.count} of ${n} replies arrived.`);
    if (this.outcomeCount !== n) throw new TraceError(`Only ${this.outcomeCount} of ${n} reply values were recorded.`);
    const proxy = this.proxy;
    if (proxy) {
      for (const [stage, what] of [[proxy.toServer, 'commands reached Redis through the proxy'], [proxy.fromServer, 'replies came back through the proxy']] as const) {
        if (stage.count !== n) throw new TraceError(`Only ${stage.count} of ${n} ${what}.`);
      }
    }
    if (serverSide?.serverUs) this.checkExecutions(serverSide.trace, serverSide.serverUs);
  }

  /**
   * Redis ran each command after it was sent and before its reply arrived: on the client's clock that
   * holds within the clock alignment's uncertainty (+1 µs for rounding), and execution is in order.
   */
  private checkExecutions(trace: ServerTrace, serverUs: readonly (number | null)[]): void {
    const { n } = this.run;
    if (serverUs.length !== n) throw new TraceError(`Redis's execution times cover ${serverUs.length} of ${n} commands.`);
    const slack = trace.clock.uncertaintyUs + 1;
    // v3 multi: a queued command replies QUEUED at once and runs when EXEC does, before EXEC's reply.
    const work = workCommandCount(this.run.mode, this.run.command, this.run.operations);
    const execReplyUs = this.run.mode === 'multi' ? this.replied.times[work - 1]! : 0;
    // An observed connection's own MULTI … EXEC blocks: each queued command is bounded by its EXEC's reply.
    const observedExec = this.run.observed ? execIndexOfQueued(this.run.observed.commands) : null;
    let previous = -Infinity;
    for (let i = 0; i < n; i++) {
      const at = serverUs[i];
      if (at === null || at === undefined) continue; // never executed (see ServerSide.serverUs)
      const sent = this.sent.times[i]!;
      const execOf = observedExec?.[i] ?? -1;
      const queued = (this.run.mode === 'multi' && i > 0 && i < work - 1) || execOf >= 0;
      const replied = execOf >= 0 ? this.replied.times[execOf]! : queued ? execReplyUs : this.replied.times[i]!;
      if (at < sent - slack || at > replied + slack) {
        throw new TraceError(`Command ${i} ran on Redis at ${at} µs, outside its request (${sent} µs) and ${queued ? "EXEC's reply" : 'reply'} (${replied} µs) by more than the clock uncertainty of ±${trace.clock.uncertaintyUs} µs.`);
      }
      if (at < previous) throw new TraceError(`Redis's execution times run backwards at command ${i}.`);
      previous = at;
    }
  }

  private proxyStages(): { toServer: Stage; fromServer: Stage } {
    if (this.proxy) return this.proxy;
    if (this.sockets) throw new TraceError('A run through the delay proxy has one socket: its writes and reads name none.');
    if (this.replied.count > 0) throw new TraceError('Proxy events began after replies had arrived: the run either went through the proxy or not.');
    const n = this.run.n;
    const toServer = new Stage(n, 'Proxy hand-overs to Redis',
      (atUs, index, total) => `Proxy chunk at ${atUs} µs carries command ${index}, but the run has only ${total}.`,
      this.sent,
      (index, atUs, sentUs) => `The proxy passed command ${index} to Redis at ${atUs} µs, before the client wrote it${sentUs === undefined ? '' : ` at ${sentUs} µs`}.`);
    const fromServer = new Stage(n, 'Proxy receipts from Redis',
      (atUs, index, total) => `Proxy chunk at ${atUs} µs completes reply ${index}, but the run has only ${total}.`,
      toServer,
      (index, atUs, toServerUs) => `Reply ${index} left Redis at ${atUs} µs, before command ${index} reached Redis${toServerUs === undefined ? '' : ` at ${toServerUs} µs`}.`);
    this.replied.follow(fromServer, (index, atUs, fromServerUs) =>
      `Reply ${index} arrived at ${atUs} µs, before it came back from Redis through the proxy${fromServerUs === undefined ? '' : ` at ${fromServerUs} µs`}.`);
    return (this.proxy = { toServer, fromServer });
  }
}

/**
 * For each command of an observed connection queued inside MULTI … EXEC, the index of that EXEC (its reply
 * bounds when the command ran); -1 elsewhere, and for a block not ended by EXEC (yet).
 */
function execIndexOfQueued(commands: readonly string[]): Int32Array {
  const exec = new Int32Array(commands.length).fill(-1);
  let multi = -1;
  commands.forEach((text, i) => {
    const name = text.slice(0, text.indexOf(' ') === -1 ? text.length : text.indexOf(' ')).toUpperCase();
    if (name === 'MULTI' && multi === -1) multi = i;
    else if (name === 'DISCARD') multi = -1;
    else if (name === 'EXEC' && multi !== -1) {
      exec.fill(i, multi + 1, i);
      multi = -1;
    }
  });
  return exec;
}

/**
 * The trace's commands, keys always in the order index, sentUs, toServerUs, serverUs, fromServerUs,
 * repliedUs, reply | error (exported files are compared byte for byte). Built by assignment, not by
 * spreading: this runs once per command of runs of up to a million.
 */
function commandRecords(
  outcomes: readonly Outcome[],
  sent: Float64Array,
  replied: Float64Array,
  proxy: { toServer: Stage; fromServer: Stage } | null,
  serverUs: readonly (number | null)[] | null,
): CommandRecord[] {
  const commands = new Array<CommandRecord>(outcomes.length);
  for (let index = 0; index < outcomes.length; index++) commands[index] = commandRecord(index, outcomes[index]!, sent, replied, proxy, serverUs);
  return commands;
}

function commandRecord(
  index: number,
  outcome: Outcome,
  sent: Float64Array,
  replied: Float64Array,
  proxy: { toServer: Stage; fromServer: Stage } | null,
  serverUs: readonly (number | null)[] | null,
): CommandRecord {
  let command: Record<string, unknown>;
  if (!proxy && !serverUs) {
    command = { index, sentUs: sent[index]!, repliedUs: replied[index]! };
  } else {
    command = { index, sentUs: sent[index]! };
    if (proxy) command['toServerUs'] = proxy.toServer.times[index]!;
    const executedUs = serverUs?.[index];
    if (executedUs !== null && executedUs !== undefined) command['serverUs'] = executedUs;
    if (proxy) command['fromServerUs'] = proxy.fromServer.times[index]!;
    command['repliedUs'] = replied[index]!;
  }
  if ('reply' in outcome) command['reply'] = outcome.reply;
  else command['error'] = outcome.error;
  return command as CommandRecord;
}

/** Appends to `out` the mapped chunks it does not hold yet (chunks are only ever appended). */
function extend<T>(out: T[], chunks: readonly Chunk[], map: (chunk: Chunk) => T): void {
  for (let i = out.length; i < chunks.length; i++) out.push(map(chunks[i]!));
}

/** The run's fields in the schema's order, whatever order the caller used (exports compare byte for byte). */
function canonicalRun(run: RunInfo): RunInfo {
  const { id, mode, command, n, operations, valueBytes, startedAt, keyPattern, chunk, warmup, injectedError, repeat, probes, chunkPauseMs, observed, memoryRepeat, round, redirectCommands } = run;
  const tail = warmup?.tail;
  return {
    id, mode, command, n, operations, valueBytes, startedAt, keyPattern,
    ...(chunk === undefined ? {} : { chunk }),
    warmup: warmup && { commands: warmup.commands, durationUs: warmup.durationUs, ...(tail ? { tail: { roundTrips: tail.roundTrips, commands: tail.commands } } : {}) },
    injectedError: injectedError && { operation: injectedError.operation, kind: injectedError.kind },
    repeat,
    probes: { monitor: probes.monitor, strace: probes.strace, memory: probes.memory, kernelTcp: probes.kernelTcp, heldConnection: probes.heldConnection },
    ...(chunkPauseMs === undefined ? {} : { chunkPauseMs }),
    ...(observed === undefined ? {} : { observed }),
    ...(memoryRepeat === undefined ? {} : { memoryRepeat }),
    ...(round === undefined ? {} : { round: { position: round.position, plan: round.plan } }),
    ...(redirectCommands === undefined ? {} : { redirectCommands: { resent: redirectCommands.resent, asking: [...redirectCommands.asking] } }),
  };
}

function asWrite(chunk: Chunk): SocketWrite {
  const write: SocketWrite = { atUs: chunk.atUs, bytes: chunk.bytes, firstCommand: chunk.first, commands: chunk.count };
  if (chunk.head !== undefined) write.head = chunk.head;
  if (chunk.connection !== undefined) write.connection = chunk.connection;
  return write;
}

function asRead(chunk: Chunk): SocketRead {
  const read: SocketRead = { atUs: chunk.atUs, bytes: chunk.bytes, firstReply: chunk.first, replies: chunk.count };
  if (chunk.head !== undefined) read.head = chunk.head;
  if (chunk.connection !== undefined) read.connection = chunk.connection;
  return read;
}
