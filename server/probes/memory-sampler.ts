// Samples memory while a run is measured: on Redis, the run connection's buffers (CLIENT LIST ID:
// qbuf = commands read but not yet run, omem = replies queued but not yet written, tot-mem = all of
// it) and used_memory (INFO memory), asked on a separate connection from a worker thread
// (memory-sampler-worker.ts), so the sampler's I/O stays off the run's event loop; on the client,
// this process's RSS and heap. What a huge pipeline costs on both ends, and why the docs advise
// chunks of ~10k. The first sample of each side is taken before t0 (the baseline; negative atUs).
//
// Each request is one pipelined write of CLIENT LIST + INFO memory, sent only when the previous one
// has answered, so Redis sees one read event and one write event per request: `requests` lets the
// run subtract exactly that from its INFO deltas (chunked-pipelines.integration.test.ts checks it).
import { Worker } from 'node:worker_threads';
import { MEMORY_CLIENT_SOURCE, MEMORY_SERVER_SOURCE, type ClientMemorySample, type Memory, type ServerMemorySample } from '../../trace/format/trace-format.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { microsSince } from '../support/monotonic-clock.ts';
import { MEMORY_WORKER_SOURCE } from './memory-sampler-worker.ts';
import { WorkerMailbox } from '../support/worker-mailbox.ts';
import { workerConnection } from './worker-connection.ts';

export const MEMORY_INTERVAL_MS = 10;

type WorkerReply =
  | { type: 'ready'; address: string }
  | { type: 'error'; message: string }
  | { type: 'first' }
  | { type: 'done'; samples: { atNs: string; list: string; usedMemory: number }[]; requests: number; failure?: string };


export class MemorySampler {
  /** Client heap readings on the run's own thread: [hrtime ns, sample without atUs]. */
  private readonly client: [bigint, Omit<ClientMemorySample, 'atUs'>][] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  /** The sampler connection's address as MONITOR names it ("127.0.0.1:51772"): its INFO lines are Pipescope's own. */
  address = '';

  private readonly mailbox: WorkerMailbox<WorkerReply>;

  private constructor(
    private readonly worker: Worker,
    private readonly intervalMs: number,
  ) {
    this.mailbox = new WorkerMailbox<WorkerReply>(worker, 'the memory sampler stopped');
  }

  /** Starts the worker and its connection ahead of the run, so the handshake is not in the run's counts. */
  static async connect(target: RedisTarget, name: string, intervalMs = MEMORY_INTERVAL_MS): Promise<MemorySampler> {
    const worker = new Worker(MEMORY_WORKER_SOURCE, {
      eval: true,
      workerData: { ...workerConnection(target, name), intervalMs },
    });
    const sampler = new MemorySampler(worker, intervalMs);
    const reply = await sampler.mailbox.next();
    if (reply.type !== 'ready') {
      await worker.terminate();
      throw new Error(`The memory sampler could not connect: ${reply.type === 'error' ? reply.message : reply.type}`);
    }
    sampler.address = reply.address;
    return sampler;
  }

  /**
   * Takes the baseline (both sides) now, early in the run's set-up, before its first INFO snapshot; go()
   * starts the sampling proper. (Sampling on until t0 cost the run's first command ~55 µs.)
   */
  async start(runClientId: number): Promise<void> {
    this.worker.postMessage({ type: 'start', runClientId });
    this.readClient();
    const reply = await this.mailbox.next();
    if (reply.type !== 'first') throw new Error(`The memory sampler failed: ${reply.type === 'error' ? reply.message : reply.type}`);
  }

  /** Just before t0: samples every intervalMs from now until stop(). */
  go(): void {
    this.worker.postMessage({ type: 'go' });
    this.timer = setTimeout(() => this.sampleClient(), this.intervalMs);
  }

  /** Client heap: read on the run's thread (another thread cannot see its heap), when its loop is free. */
  private sampleClient(): void {
    if (this.stopped) return;
    const started = process.hrtime.bigint();
    this.readClient();
    this.timer = setTimeout(() => this.sampleClient(), this.intervalMs);
    this.runThreadNs += process.hrtime.bigint() - started;
    this.samplesAfterGo++;
  }

  /** The readings taken on the run's thread after go(), and the time they took there (ns). */
  private runThreadNs = 0n;
  private samplesAfterGo = 0;

  private readClient(): void {
    const memory = process.memoryUsage();
    this.client.push([process.hrtime.bigint(), { rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external }]);
  }

  /**
   * Stops sampling once the request in flight (if any) has answered; `requests` is how many sampling
   * requests Redis answered (each: 2 commands, 1 read event, 1 write event), for the INFO correction;
   * `runThread`: the client readings taken on the run's thread since go(), and their time there (µs).
   */
  async stop(t0: bigint): Promise<{ memory: Memory; requests: number; runThread: { us: number; samples: number } }> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.worker.postMessage({ type: 'stop' });
    const reply = await this.mailbox.next();
    if (reply.type !== 'done') throw new Error(`The memory sampler failed: ${reply.type === 'error' ? reply.message : reply.type}`);
    const server: ServerMemorySample[] = [];
    for (const sample of reply.samples) {
      const conn = parseClientLine(sample.list);
      if (conn && Number.isFinite(sample.usedMemory)) server.push({ atUs: microsSince(t0, BigInt(sample.atNs)), ...conn, usedMemory: sample.usedMemory });
    }
    return {
      memory: {
        intervalMs: this.intervalMs,
        server: { source: MEMORY_SERVER_SOURCE, samples: server },
        client: { source: MEMORY_CLIENT_SOURCE, samples: this.client.map(([atNs, sample]) => ({ atUs: microsSince(t0, atNs), ...sample })) },
      },
      requests: reply.requests,
      runThread: { us: Number(this.runThreadNs) / 1000, samples: this.samplesAfterGo },
    };
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    void this.worker.terminate();
  }
}

/** qbuf, omem and tot-mem from one CLIENT LIST line; undefined when the client is gone. */
export function parseClientLine(line: string): { qbuf: number; omem: number; totMem: number } | undefined {
  const fields = new Map(line.trim().split(' ').map((pair) => {
    const eq = pair.indexOf('=');
    return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
  }));
  const qbuf = Number(fields.get('qbuf'));
  const omem = Number(fields.get('omem'));
  const totMem = Number(fields.get('tot-mem'));
  return [qbuf, omem, totMem].every(Number.isFinite) && fields.has('tot-mem') ? { qbuf, omem, totMem } : undefined;
}
