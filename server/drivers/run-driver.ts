// What a run asks of the client that puts its commands on the socket, whichever engine it is: the
// executors and probes see only this. One implementation per engine (ioredis-driver.ts, raw-driver.ts);
// open-driver.ts picks one.
import type { Socket } from 'node:net';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import type { Workload } from '../protocol/run-workload.ts';
import type { WirePlan } from '../protocol/mode-plan.ts';

// WireCommand and WirePlan live in protocol/mode-plan.ts, which builds plans (the protocol layer
// may not import drivers); re-exported here, where the engines take them.
export type { WireCommand, WirePlan } from '../protocol/mode-plan.ts';

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
  /**
   * Before t0, for a plan mode: what prepare() is for a workload (the raw engine encodes the plan's
   * batches). Optional: an engine that builds its commands in the run, as a library does, has none.
   */
  preparePlan?(plan: WirePlan, cancelled: () => boolean): Promise<void>;
  /** One command, its reply awaited before the next; outcomes reported in order. */
  sequential(workload: Workload, n: number, record: (o: Outcome) => void, cancelled: () => boolean): Promise<void>;
  /**
   * Pipelines of `chunk` commands (chunk ≥ n: all n written at once), each pipeline's replies awaited
   * before the next is written; outcomes reported in order. v3 `pauseMs` (chunked runs): the driver
   * sleeps that long between one pipeline's last reply and the next pipeline, inside the measured time
   * (it is the workload asked for: small batches and a short sleep).
   */
  pipeline(workload: Workload, n: number, chunk: number, record: (o: Outcome) => void, cancelled: () => boolean, pauseMs?: number): Promise<void>;
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
