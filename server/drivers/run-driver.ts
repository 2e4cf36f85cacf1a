// What a run asks of the client that puts its commands on the socket, whichever engine it is: the
// executors and probes see only this. One implementation per engine (ioredis-driver.ts, raw-driver.ts);
// open-driver.ts picks one.
import type { Socket } from 'node:net';
import type { Outcome } from '../../trace/trace-builder.ts';
import type { Workload } from '../protocol/run-workload.ts';

/** One command as it goes on the wire: its name, then its arguments. */
export type WireCommand = [name: string, ...args: (string | Buffer)[]];

/**
 * How a mode beyond plain pipelines puts its commands on the wire (protocol/mode-plan.ts builds it):
 * batches, one after another; each batch's commands are written at once (one pipeline), and its
 * replies are all awaited before the next batch is written. MULTI … EXEC is one batch of n + 2
 * commands; one EVAL or one MSET is a batch of one; n EVALSHA calls are one batch of n.
 */
export interface WirePlan {
  /** Commands on the wire in all: run.n. */
  readonly total: number;
  /** The batches in order; together they hold `total` commands. */
  batches(): Iterable<readonly WireCommand[]>;
}

export interface RunDriver {
  /** Who wrote the commands, for the trace's recorder.client. */
  readonly client: string;
  readonly socket: Socket;
  ping(): Promise<void>;
  /** The run connection's id on Redis (CLIENT ID), to find it in CLIENT LIST. */
  clientId(): Promise<number>;
  /**
   * Before t0: whatever the engine does ahead of a run (the raw engine encodes all n commands, in
   * slices, the event loop free in between); rejects with RunCancelledError once `cancelled()`.
   */
  prepare(workload: Workload, n: number, cancelled: () => boolean): Promise<void>;
  /** One command, its reply awaited before the next; outcomes reported in order. */
  sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * Pipelines of `chunk` commands (chunk ≥ n: all n written at once), each pipeline's replies awaited
   * before the next is written; outcomes reported in order.
   */
  pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * v3 modes multi, eval, evalsha, multikey: the plan's batches, each written at once, its replies
   * awaited before the next. One outcome per wire command, in order: a reply array (EXEC's, MGET's, a
   * script's) is recorded as previewReply of it; an error reply as its message (EXECABORT included).
   */
  batches(plan: WirePlan, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * v3 mode auto: the n commands issued in one tick through the library's own methods, with no explicit
   * pipeline, all awaited together; the library decides what goes in each write (ioredis with
   * enableAutoPipelining, node-redis always). Rejects for the raw engine, which has no library.
   */
  auto(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * v3 GET-COMPUTE-SET, sequential: n dependent steps, each a GET, its reply awaited, computeNext of
   * it, then a SET of the result, its reply awaited: two round trips per step, two outcomes per step.
   */
  dependent(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /** Closes the connection once what was written has gone (the run is over). */
  disconnect(): void;
  /**
   * Stops at once (Cancel): the socket is destroyed, bytes not yet handed to the kernel are dropped,
   * and whatever waits for replies fails.
   */
  abort(): void;
}
