// What the hard suite's files share: figures printed in one recognisable form, the backend's memory
// sampled from the kernel while something runs, the static page timed again and again while
// something runs, runs rebuilt from the wire as the browser builds them, and a Redis observer.
import { Redis } from 'ioredis';
import { decodeBatch, finishRun, type ServerMessage } from '../trace/protocol/live-protocol.ts';
import { TraceBuilder } from '../trace/format/trace-builder.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { percentileOf, rssMb, sleep, type LiveClient } from '../server/test-support/backend-process.ts';

/** One figure of the suite, printed as "FIGURE name: value" (grep the output for FIGURE). */
export function figure(name: string, value: string): void {
  console.log(`FIGURE ${name}: ${value}`);
}

/** "p50 12 ms, p99 80 ms, max 95 ms (n = 40)" for a list of milliseconds. */
export function spread(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => percentileOf(sorted, p).toFixed(0);
  return `p50 ${at(50)} ms, p99 ${at(99)} ms, max ${sorted.at(-1)?.toFixed(0) ?? '–'} ms (n = ${sorted.length})`;
}

/** The process's RSS every `intervalMs` until stop(): the peak, and every sample. */
export class RssSampler {
  readonly samples: number[] = [];
  private readonly timer: NodeJS.Timeout;

  constructor(pid: number, intervalMs = 50) {
    this.timer = setInterval(() => {
      const mb = rssMb(pid);
      if (Number.isFinite(mb)) this.samples.push(mb);
    }, intervalMs);
  }

  get peak(): number {
    return Math.max(...this.samples);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/** Fetches `url` again and again, one request at a time with `pauseMs` between, timing each, until stop(). */
export class HttpProber {
  readonly latencies: number[] = [];
  private stopped = false;
  private readonly done: Promise<void>;

  constructor(url: string, pauseMs = 20) {
    this.done = (async () => {
      while (!this.stopped) {
        const started = performance.now();
        const response = await fetch(url, { headers: { connection: 'close' } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
        this.latencies.push(performance.now() - started);
        await sleep(pauseMs);
      }
    })();
  }

  async stop(): Promise<number[]> {
    this.stopped = true;
    await this.done;
    return this.latencies;
  }
}

/** The runs of a request, rebuilt from the messages exactly as the browser does. */
export function tracesFor(messages: ServerMessage[], requestId: string): TraceDocument[] {
  const docs: TraceDocument[] = [];
  let builder: TraceBuilder | undefined;
  for (const m of messages) {
    if (!('requestId' in m) || m.requestId !== requestId) continue;
    if (m.type === 'run-start') builder = new TraceBuilder(m);
    if (m.type === 'run-events') builder!.addBatch(decodeBatch(m));
    if (m.type === 'run-end') docs.push(finishRun(builder!, m));
  }
  return docs;
}

/** A request's end: request-done, cancelled or error (waits for it). */
export async function requestEnd(client: LiveClient, requestId: string, timeoutMs = 300_000): Promise<{ at: number; message: ServerMessage }> {
  return client.nextAt((m) => 'requestId' in m && m.requestId === requestId && (m.type === 'request-done' || m.type === 'cancelled' || m.type === 'error'), 0, timeoutMs);
}

export async function observe(address: { host: string; port: number }, password?: string): Promise<Redis> {
  const redis = new Redis({ ...address, ...(password ? { password } : {}), lazyConnect: true, maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  await redis.connect();
  return redis;
}

/** Keys under Pipescope's run namespace (SCAN: the test may; Pipescope itself never does). */
export async function runKeys(redis: Redis): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  for (let i = 0; i < 100_000; i++) {
    const [next, keys] = await redis.scan(cursor, 'MATCH', 'pipescope:*', 'COUNT', 1000);
    found.push(...keys);
    cursor = next;
    if (cursor === '0') break;
  }
  return found;
}

/** CLIENT LIST as name (or "addr …" when unnamed) per connection, sorted, without `except` (the observer). */
export async function clientNames(redis: Redis): Promise<string[]> {
  const list = String(await redis.call('CLIENT', 'LIST'));
  const own = Number(await redis.call('CLIENT', 'ID'));
  return list
    .split('\n')
    .filter((line) => line.trim() && Number(/\bid=(\d+)/.exec(line)?.[1]) !== own)
    .map((line) => /\bname=(\S*)/.exec(line)?.[1] || 'unnamed')
    .sort();
}
