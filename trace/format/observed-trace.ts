// An observed connection as a trace document: the observing proxy's record of one connection of the
// user's own client (server/observe/), turned into the one trace model every view, export and the CLI
// read. The record is append-only while the connection lives; observedTrace() builds the document of
// it as far as it got (incomplete, reason in-progress, while replies are still due) through the same
// TraceBuilder as Pipescope's own runs, so the same checks hold: FIFO pairing, no reply before its
// request. Here, in trace/, because the backend and the CLI build the same documents alike.
import { TraceBuilder, type Outcome, type ReadEvent, type ServerCounts, type WriteEvent } from './trace-builder.ts';
import {
  OBSERVED_SOURCE,
  type HopCost,
  type KernelTcp,
  type Observed,
  type RedisInfo,
  type ServerTrace,
  type TraceDocument,
} from './trace-format.ts';

/** At most this many unpaired frames are kept per connection (all are counted). */
export const MAX_KEPT_PUSHES = 1000;

/** What the proxy recorded of one connection, every list append-only; times µs since the connection's t0. */
export interface ObservedRecord {
  session: string;
  connection: number;
  clientAddress: string;
  /** ISO time of t0: the arrival of the connection's first byte (or its accept, before any). */
  startedAt: string;
  redis: RedisInfo;
  recorder: { tool: string; version: string; runtime: string };
  /** The added RTT and jitter the proxy applied (ms); 0 for a plain hop. */
  addedRttMs: number;
  jitterMs: number;
  hop: HopCost | null;
  libName?: string;
  libVersion?: string;
  clientName?: string;
  protocol: 2 | 3;
  /** Command texts and sizes, by index. */
  commands: string[];
  commandBytes: number[];
  /** Reply outcomes and sizes, by index (the first replies.length commands have replies). */
  outcomes: Outcome[];
  replyBytes: number[];
  /** Chunks from the client (arrival at the proxy), to Redis (written), from Redis (arrival), to the client (written). */
  fromClient: WriteEvent[];
  toServer: WriteEvent[];
  fromServer: ReadEvent[];
  toClient: ReadEvent[];
  pushes: Observed['pushes'];
  pushCount: number;
  notes: string[];
  kernelTcp: KernelTcp | null;
  /** The connection has closed: what it did not get back, it never will. */
  closed: boolean;
  /**
   * MONITOR, when the session asked for it: Redis's clock on the proxy's, and each line of this
   * connection (when Redis executed what, by name, µs since t0), in execution order.
   */
  monitor?: { clock: ServerTrace['clock']; executions: { atUs: number; name: string }[]; fromCommand: number };
}

/** Observed traces measure nothing with INFO per connection: zeros, never claimed exclusive. */
const NO_SERVER_COUNTS: ServerCounts = { reads: 0, writes: 0, execUs: 0, source: 'redis-info', exclusive: false };

/**
 * The connection's trace document, or null while it has sent no whole command. While the connection is
 * open and recording goes on, it is incomplete (in-progress: more may come); once it has closed, or with
 * `final` (the session stopped), it is complete when every reply arrived, and connection-lost otherwise.
 */
export function observedTrace(record: ObservedRecord, final = false): TraceDocument | null {
  const n = record.commands.length;
  if (n === 0) return null;
  const observed: Observed = {
    source: OBSERVED_SOURCE,
    session: record.session,
    connection: record.connection,
    clientAddress: record.clientAddress,
    ...(record.libName ? { libName: record.libName } : {}),
    ...(record.libVersion ? { libVersion: record.libVersion } : {}),
    ...(record.clientName ? { clientName: record.clientName } : {}),
    protocol: record.protocol,
    commands: record.commands.slice(0, n),
    commandBytes: record.commandBytes.slice(0, n),
    replyBytes: record.replyBytes.slice(0, Math.min(n, record.replyBytes.length)),
    pushes: record.pushes.slice(),
    pushCount: record.pushCount,
    notes: record.notes.slice(),
    hop: record.hop,
  };
  const builder = new TraceBuilder({
    run: {
      id: `${record.session}-${record.connection}`.slice(0, 64),
      mode: neverTwoInFlight(record) ? 'sequential' : 'pipeline',
      command: 'PING',
      n,
      operations: n,
      valueBytes: 0,
      startedAt: record.startedAt,
      keyPattern: '',
      warmup: null,
      injectedError: null,
      repeat: 0,
      probes: { monitor: record.monitor !== undefined, strace: false, memory: false, kernelTcp: record.kernelTcp !== null, heldConnection: false },
      observed,
    },
    redis: record.redis,
    rtt: { addedMs: record.addedRttMs, jitterMs: record.jitterMs, measuredMinUs: 0, measuredMedianUs: 0, samples: 0 },
    recorder: { ...record.recorder, client: clientLabel(record) },
  });
  const replies = Math.min(record.outcomes.length, n);
  builder.addBatch({
    writes: capped(record.fromClient, n, 'commands'),
    toServer: capped(record.toServer, n, 'commands'),
    fromServer: capped(record.fromServer, replies, 'replies'),
    reads: capped(record.toClient, replies, 'replies'),
    outcomes: record.outcomes.slice(0, replies),
  });
  const { progress } = builder;
  const complete = (record.closed || final) && progress.sent === n && progress.replied === n && replies === n
    && record.toServer.reduce((sum, w) => sum + w.commands, 0) >= n && record.fromServer.reduce((sum, r) => sum + r.replies, 0) >= n;
  if (complete) {
    const serverSide = record.monitor
      ? { trace: { clock: record.monitor.clock, others: [], syscalls: null }, serverUs: executionTimes(record.commands.slice(0, n), record.monitor.executions, record.monitor.fromCommand) }
      : null;
    return builder.finish(NO_SERVER_COUNTS, { kernelTcp: record.kernelTcp, serverSide });
  }
  return builder.partial(
    { reason: record.closed || final ? 'connection-lost' : 'in-progress', omitted: ['redis-info', 'memory', 'keys-after', 'neighbor', 'held-connection'] },
    { kernelTcp: record.kernelTcp },
  );
}

/**
 * When Redis executed each command, from MONITOR's lines of the connection in order: a line goes to the
 * next command of its name; a command with none (AUTH, which MONITOR leaves out; one Redis refused
 * unrun) has null. Queued commands come when their EXEC ran, which MONITOR logs in the same order.
 */
export function executionTimes(commands: readonly string[], executions: readonly { atUs: number; name: string }[], fromCommand = 0): (number | null)[] {
  const times: (number | null)[] = new Array(commands.length).fill(null);
  let line = 0;
  // Commands sent before MONITOR started have no line (their slots stay null).
  for (let i = fromCommand; i < commands.length && line < executions.length; i++) {
    // A command whose name is not the next line's was not logged: the line waits for a later command.
    if (executions[line]!.name.toLowerCase() !== commands[i]!.split(' ', 1)[0]!.toLowerCase()) continue;
    times[i] = executions[line]!.atUs;
    line++;
  }
  return times;
}

/** "ioredis 6.0.0 (observed)", or "your client (observed)" for one that did not name its library (recorder.client, the diagram's lane). */
export function clientLabel(record: Pick<ObservedRecord, 'libName' | 'libVersion' | 'clientName' | 'clientAddress'>): string {
  const lib = record.libName ? `${record.libName}${record.libVersion ? ` ${record.libVersion}` : ''}` : 'your client';
  return `${lib}${record.clientName ? ` "${record.clientName}"` : ''} (observed)`;
}

/** Events up to the one that completes the `limit`-th command (or reply): later ones would exceed n. */
function capped<T extends WriteEvent | ReadEvent>(events: readonly T[], limit: number, key: 'commands' | 'replies'): T[] {
  const out: T[] = [];
  let total = 0;
  for (const event of events) {
    const count = (event as unknown as Record<string, number>)[key]!;
    if (total + count > limit) {
      if (total < limit) out.push({ ...event, [key]: limit - total });
      break;
    }
    out.push(event);
    total += count;
  }
  return out;
}

/** True when every command reached the proxy only after the previous command's reply had left it. */
function neverTwoInFlight(record: ObservedRecord): boolean {
  const sent = expand(record.fromClient.map((w) => [w.atUs, w.commands]));
  const replied = expand(record.toClient.map((r) => [r.atUs, r.replies]));
  for (let i = 1; i < sent.length; i++) {
    const previousReply = replied[i - 1];
    if (previousReply === undefined || sent[i]! < previousReply) return false;
  }
  return true;
}

function expand(chunks: [number, number][]): number[] {
  const times: number[] = [];
  for (const [atUs, count] of chunks) for (let k = 0; k < count; k++) times.push(atUs);
  return times;
}
