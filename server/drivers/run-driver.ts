// What a run asks of the client that puts its commands on the socket, whichever engine it is: the
// executors and probes see only this. One implementation per engine (ioredis-driver.ts, raw-driver.ts);
// open-driver.ts picks one.
import type { Socket } from 'node:net';
import type { Outcome } from '../../trace/trace-builder.ts';
import type { Workload } from '../protocol/run-workload.ts';

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
  /** Closes the connection once what was written has gone (the run is over). */
  disconnect(): void;
  /**
   * Stops at once (Cancel): the socket is destroyed, bytes not yet handed to the kernel are dropped,
   * and whatever waits for replies fails.
   */
  abort(): void;
}
