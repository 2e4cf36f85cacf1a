// The node-redis engine (the `redis` package, v6): the other client library Node users pick. It
// has no pipeline object: every command goes into one queue, and whatever was issued in one tick of
// the event loop is written together at the next setImmediate (socket corked, one write() per piece
// of each command, uncorked: one batch for the kernel; a batch stops at the socket's highWaterMark,
// 16 KiB, and the rest follows on 'drain'). So every mode here issues its commands and lets
// node-redis decide what goes in each write; the probe sees it at the socket (captured-socket.ts).
//
// Which API each mode uses, and why:
// - sequential, dependent: client.incr(k), client.get(k)… each awaited, as a user writes them.
// - pipeline(chunk), auto: the chunk's (or all n) commands through the same methods in one tick,
//   awaited together. This is node-redis's own way to pipeline ("commands issued in the same tick are
//   pipelined"). Its explicit `multi()…execAsPipeline()` puts the very same bytes on the wire (no
//   MULTI/EXEC: node-redis-engine.integration.test.ts compares them), but it awaits its commands with
//   Promise.all: at the first error reply it rejects with that error alone and the other replies are
//   lost to the caller, so a pipeline with an error (run.injectedError) could not be recorded reply
//   by reply. Same-tick commands, each settled on its own, record every reply.
// - batches(plan): each batch's wire commands through sendCommand in one tick. node-redis passes a
//   raw MULTI and EXEC through sendCommand untouched (it only adds MULTI/EXEC itself in multi().exec()),
//   so MULTI's OK, each QUEUED and EXEC's array are replies like any other.
//
// A pipeline is issued in one tick, however long, as a node-redis user's loop would: unlike the ioredis
// engine (sliced past PIPELINE_SLICE) the event loop is held meanwhile (200,000 SETs: 4.5 s to issue on
// this 2-core machine under load), so a Cancel, the live feed and HTTP wait for it. Writing does not hold it:
// node-redis writes ~16 KiB, then waits for 'drain'.
//
// Version: redis 6.3.1, pinned exactly (package.json); version 5 was planned first. The registry's newest is
// 6.3.1 and node-redis 6 requires Node >= 20, which Pipescope runs on (package.json engines), so a
// user installing node-redis today gets 6 and that is what is measured. The last v5 is 5.12.1 (Node
// >= 18.19). What matters here in 6: RESP3 by default, and a 5 s per-command write timeout.
//
// Options chosen for measurement, the rest left at node-redis's defaults (RESP3, CLIENT SETINFO):
// no reconnection and no offline queue (a run measures or fails, as with ioredis), no per-command
// timeout (node-redis 6 gives each command 5 s to be written, one AbortSignal.timeout each: a pipeline
// of 200,000 SETs failed here with TimeoutError, its last commands still waiting for 'drain'), and no
// Redis Enterprise maintenance notifications (a CLIENT MAINT_NOTIFICATIONS in the handshake, which
// plain Redis answers with an error that node-redis ignores: one more command for nothing).
import type { Socket } from 'node:net';
import { createClient, ErrorReply } from 'redis';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { chunks, computeNext, type Workload } from '../protocol/run-workload.ts';
import { mostTelling } from '../redis/connect-failure.ts';
import { tlsOptions, type RedisTarget } from '../redis/redis-target.ts';
import { nodeRedisVersion } from '../support/recorder-info.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { captureSocket } from './captured-socket.ts';
import { outcomeRecorder, type OutcomeRecorder } from './outcome-recorder.ts';
import type { RunDriver, WirePlan } from './run-driver.ts';

/** Who writes the commands: the trace's recorder.client. */
export function nodeRedisClientName(): string {
  return `node-redis ${nodeRedisVersion()}`;
}

/** ms to connect and complete the handshake, as for ioredis. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Errors kept from the client's 'error' events to explain a failed connect (connect-failure.ts). */
const RECENT_ERRORS = 5;

function newClient(target: RedisTarget, name: string) {
  const tls = target.url.startsWith('rediss:');
  return createClient({
    url: target.url, // host, port, user, password (HELLO 3 AUTH) and database (SELECT) from the URL
    name,
    socket: {
      ...(tls ? { tls: true as const, ...tlsOptions(target) } : { tls: false as const }),
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: false,
    },
    disableOfflineQueue: true,
    commandOptions: { timeout: 0 },
    maintNotifications: 'disabled',
  });
}

type NodeRedisClient = ReturnType<typeof newClient>;

/** A command's rejection, kept as a value so that a batch's other commands are still recorded. */
class Failed {
  constructor(readonly error: unknown) {}
}
const failed = (error: unknown) => new Failed(error);

export class NodeRedisDriver implements RunDriver {
  readonly client = nodeRedisClientName();

  private constructor(
    private readonly connection: NodeRedisClient,
    readonly socket: Socket,
  ) {}

  static async open(target: RedisTarget, name: string): Promise<NodeRedisDriver> {
    const connection = newClient(target, name);
    const errors: unknown[] = [];
    // Without a listener an 'error' event would end the process; kept to explain a failed connect.
    connection.on('error', (error: unknown) => {
      errors.push(error);
      if (errors.length > RECENT_ERRORS) errors.shift();
    });
    let socket: Socket | undefined;
    try {
      const captured = captureSocket(() => connection.connect());
      socket = captured.socket;
      await captured.pending;
    } catch (error) {
      connection.destroy();
      throw mostTelling([error, ...errors.slice().reverse()], target);
    }
    return new NodeRedisDriver(connection, socket);
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async clientId(): Promise<number> {
    return Number(await this.connection.clientId());
  }

  /** Nothing: building and encoding commands is part of what a client library costs, so it is in the run. */
  async prepare(): Promise<void> {}

  async sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(this.connection, workload);
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      try {
        outcomes.reply(previewReply(await issue(i)));
      } catch (error) {
        if (!(error instanceof ErrorReply)) throw error;
        outcomes.error(error.message);
      }
    }
  }

  async pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean, pauseMs = 0): Promise<void> {
    const outcomes = outcomeRecorder(record);
    const issue = commandMethod(this.connection, workload);
    for (const [from, to] of chunks(n, chunk)) {
      // Chunked runs' pause between one chunk's last reply and the next chunk: part of the measured run.
      if (from > 0 && pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      await issueTogether(to - from, (i) => issue(from + i), outcomes);
    }
  }

  async batches(plan: WirePlan, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    const outcomes = outcomeRecorder(record);
    for (const batch of plan.batches()) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      await issueTogether(batch.length, (i) => this.connection.sendCommand(batch[i]!), outcomes);
    }
  }

  async auto(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    if (cancelled()) throw new RunCancelledError('Run cancelled');
    await issueTogether(n, commandMethod(this.connection, workload), outcomeRecorder(record));
  }

  async dependent(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void> {
    if (workload.command !== 'GET-COMPUTE-SET') throw new Error(`dependent steps need GET-COMPUTE-SET, not ${workload.command}`);
    const outcomes = outcomeRecorder(record);
    for (let i = 0; i < n; i++) {
      if (cancelled()) throw new RunCancelledError('Run cancelled');
      const key = workload.argsFor(i)[0] as string;
      let value: string | null = null;
      try {
        const read = await this.connection.get(key);
        value = read === null ? null : String(read);
        outcomes.reply(previewReply(read));
      } catch (error) {
        if (!(error instanceof ErrorReply)) throw error;
        outcomes.error(error.message);
      }
      try {
        outcomes.reply(previewReply(await this.connection.set(key, computeNext(value))));
      } catch (error) {
        if (!(error instanceof ErrorReply)) throw error;
        outcomes.error(error.message);
      }
    }
  }

  disconnect(): void {
    // close(): waits for any reply still due, then closes; nothing is due once a run is over.
    this.connection.close().catch(() => {});
  }

  abort(): void {
    // Destroyed first, the socket drops what it holds; then node-redis rejects every command still
    // queued or waiting for its reply (DisconnectsClientError), so whatever awaits them fails at once,
    // and a write it had scheduled finds no socket and writes nothing.
    this.socket.destroy();
    this.connection.destroy();
  }
}

/**
 * `count` commands issued in this tick (node-redis writes them together at the next setImmediate),
 * each settled on its own, then recorded in order: an error reply as its message; any other
 * rejection (the connection failed or was aborted) is thrown after all have settled.
 */
async function issueTogether(count: number, issue: (i: number) => Promise<unknown>, outcomes: OutcomeRecorder): Promise<void> {
  const settled = new Array<Promise<unknown>>(count);
  for (let i = 0; i < count; i++) settled[i] = issue(i).catch(failed);
  const results = await Promise.all(settled);
  // Indexed: a big pipeline's results are all recorded here, after its last reply.
  for (let i = 0; i < count; i++) {
    const result = results[i];
    if (!(result instanceof Failed)) outcomes.reply(previewReply(result));
    else if (result.error instanceof ErrorReply) outcomes.error(result.error.message);
    else throw result.error;
  }
}

/**
 * The i-th command through node-redis's own method for it (ping(), incr(k), set(k, v), get(k)): what a
 * user writes, with its argument parsing and reply transform.
 */
function commandMethod(client: NodeRedisClient, workload: Workload): (i: number) => Promise<unknown> {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'PING':
      return () => client.ping();
    case 'INCR':
      // The planted queueing error (protocol/run-workload.ts) is an INCR without its key: incr() would
      // refuse it in the client, so it goes as it is through sendCommand, for Redis to refuse.
      return (i) => (workload.argsFor(i).length === 0 ? client.sendCommand(['INCR']) : client.incr(key(i)));
    case 'GET':
      return (i) => client.get(key(i));
    case 'SET':
      return (i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        return client.set(k, value);
      };
    case 'GET-COMPUTE-SET':
      throw new Error('A GET-COMPUTE-SET step is two commands, the second built from the first reply: it has no single-command method');
  }
}
