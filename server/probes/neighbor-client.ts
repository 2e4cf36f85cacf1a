// The neighbour: another application sharing the Redis while a run is measured (what it shows: other
// clients' commands run between a pipeline's commands; big batches raise their latency). It runs
// on a worker thread (neighbor-client-worker.ts) on its own connection, straight to Redis (never through
// the delay proxy), so it shares neither the run's event loop nor its socket. Started before t0 and
// warmed up (its latency before the run is the baseline), stopped after the run's last reply; each of
// its commands is timed on the run's clock (negative before t0).
//
// Bounds: at most MAX_NEIGHBOR_COMMANDS commands (10 s at the highest rate, MAX_NEIGHBOR_RATE); past
// that it stops issuing, so its recorded commands end before the run does (the trace format has no
// field for it: the last command's time says so). Its key is `<namespace>neighbor`, created (for GET)
// before t0 and deleted with the run's keys (runs/run-cleanup.ts).
import { Worker } from 'node:worker_threads';
import { NEIGHBOR_SOURCE, type Neighbor } from '../../trace/format/trace-format.ts';
import { assertAllowed } from '../protocol/command-guard.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { redisAddress } from './monitor-probe.ts';
import { NEIGHBOR_WORKER_SOURCE } from './neighbor-client-worker.ts';
import { WorkerMailbox } from '../support/worker-mailbox.ts';
import { workerConnection } from './worker-connection.ts';

/** Commands one neighbour sends at most (2 × 8 bytes of times each: 3.2 MB at most). */
export const MAX_NEIGHBOR_COMMANDS = 200_000;
/** The baseline before t0: this many replies, or NEIGHBOR_WARM_MS, whichever comes first. */
export const NEIGHBOR_WARM_COMMANDS = 200;
export const NEIGHBOR_WARM_MS = 250;
/** How long close() waits for the command in flight before it ends the worker anyway (ms). */
const CLOSE_TIMEOUT_MS = 1_000;

export type NeighborCommand = Neighbor['command'];

type WorkerReply =
  | { type: 'ready'; localAddress: string | undefined; localPort: number | undefined }
  | { type: 'error'; message: string }
  | { type: 'warm' }
  | { type: 'done'; baseNs: string; sent: Float64Array; replied: Float64Array; count: number; errors: [number, string][] };


/**
 * A neighbour for the run `runId`, connected (its GET value created) but not yet issuing: go() starts it.
 * Its key and commands are checked against the run's allow-list first.
 */
export async function connectNeighbor(target: RedisTarget, runId: string, namespace: string, command: NeighborCommand, ratePerSec: number, valueBytes: number): Promise<NeighborClient> {
  const key = neighborKey(namespace);
  assertAllowed(namespace, command, [key]);
  if (command === 'GET') assertAllowed(namespace, 'SET', [key]);
  return NeighborClient.connect(target, `pipescope-neighbor-${runId}`, { command, ratePerSec, valueBytes, key });
}

/** The neighbour's key in a run's namespace. */
export function neighborKey(namespace: string): string {
  return `${namespace}neighbor`;
}

export interface NeighborOptions {
  command: NeighborCommand;
  /** Commands per second (> 0). */
  ratePerSec: number;
  /** Size of the value its GETs read, bytes (ignored for INCR). */
  valueBytes: number;
  key: string;
  maxCommands?: number;
}

export class NeighborClient {
  private done: Promise<WorkerReply> | undefined;
  /** Its connection as Redis (MONITOR, CLIENT LIST) names it: local address:port; set once connected. */
  address = '';

  private readonly mailbox: WorkerMailbox<WorkerReply>;

  private constructor(
    private readonly worker: Worker,
    private readonly options: NeighborOptions,
    /** [0] = 1: stop issuing (shared with the worker, so it is seen even while the worker waits). */
    private readonly stopFlag: Int32Array,
  ) {
    this.mailbox = new WorkerMailbox<WorkerReply>(worker, 'the neighbour client stopped');
  }

  /** Connects (and, for GET, creates its value) on the worker; nothing is issued until go(). */
  static async connect(target: RedisTarget, name: string, options: NeighborOptions): Promise<NeighborClient> {
    const stopFlag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(NEIGHBOR_WORKER_SOURCE, {
      eval: true,
      workerData: {
        ...workerConnection(target, name),
        command: options.command, key: options.key, valueBytes: options.command === 'GET' ? options.valueBytes : 0,
        ratePerSec: options.ratePerSec, maxCommands: options.maxCommands ?? MAX_NEIGHBOR_COMMANDS,
        warmCommands: NEIGHBOR_WARM_COMMANDS, warmMs: NEIGHBOR_WARM_MS, stopFlag: stopFlag.buffer,
      },
    });
    const client = new NeighborClient(worker, options, stopFlag);
    const reply = await client.mailbox.next();
    if (reply.type !== 'ready') {
      await worker.terminate();
      throw new Error(`The neighbour client could not connect: ${reply.type === 'error' ? reply.message : reply.type}`);
    }
    client.address = redisAddress(reply.localAddress, reply.localPort);
    return client;
  }

  /** Starts issuing; resolves once its baseline is in (NEIGHBOR_WARM_COMMANDS replies or NEIGHBOR_WARM_MS). */
  async go(): Promise<void> {
    this.worker.postMessage({ type: 'go' });
    const reply = await this.mailbox.next();
    if (reply.type !== 'warm') throw new Error(`The neighbour client failed: ${reply.type === 'error' ? reply.message : reply.type}`);
  }

  /** Stops issuing now (the command in flight still answers): safe to call from an abort handler. */
  halt(): void {
    Atomics.store(this.stopFlag, 0, 1);
    Atomics.notify(this.stopFlag, 0);
  }

  /** After the run's last reply: stops, and returns its commands timed on the run's clock (t0 on hrtime, ns). */
  async stop(t0: bigint): Promise<Neighbor> {
    const reply = await this.finish();
    if (reply.type !== 'done') throw new Error(`The neighbour client failed: ${reply.type === 'error' ? reply.message : reply.type}`);
    const offsetNs = Number(BigInt(reply.baseNs) - t0);
    const us = (ns: number) => Math.round((offsetNs + ns) / 1000);
    const errors = new Map(reply.errors);
    const commands: Neighbor['commands'] = [];
    for (let i = 0; i < reply.count; i++) {
      const error = errors.get(i);
      commands.push({ sentUs: us(reply.sent[i]!), repliedUs: us(reply.replied[i]!), ...(error === undefined ? {} : { error }) });
    }
    const { command, ratePerSec } = this.options;
    return { source: NEIGHBOR_SOURCE, command, ratePerSec, valueBytes: command === 'GET' ? this.options.valueBytes : 0, address: this.address, commands };
  }

  /** Halts, and waits for the worker's record (its command in flight answered): once, however often asked. */
  private finish(): Promise<WorkerReply> {
    if (!this.done) {
      this.halt();
      this.worker.postMessage({ type: 'stop' });
      this.done = this.mailbox.next();
    }
    return this.done;
  }

  /** Ends the worker and its connection; waits (at most CLOSE_TIMEOUT_MS) for the command in flight first. */
  async close(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.finish(), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)))]);
    clearTimeout(timer);
    await this.worker.terminate();
  }

  /** For tests: whether its worker thread still runs. */
  get running(): boolean {
    return this.worker.threadId !== -1;
  }
}
