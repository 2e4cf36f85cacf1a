// Samples memory while a run is measured: on Redis, the run connection's buffers (CLIENT LIST ID:
// qbuf = commands read but not yet run, omem = replies queued but not yet written, tot-mem = all of
// it) and used_memory (INFO memory), asked on a separate connection; on the client, this process's
// RSS and heap. What a huge pipeline costs on both ends, and why the docs advise chunks of ~10k.
//
// Each request is one pipelined write of CLIENT LIST + INFO memory, sent only when the previous one
// has answered, so Redis sees one read event and one write event per request: `requests` lets the
// run subtract exactly that from its INFO deltas (chunked-pipelines.integration.test.ts checks it).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Redis } from 'ioredis';
import { MEMORY_CLIENT_SOURCE, MEMORY_SERVER_SOURCE, type ClientMemorySample, type Memory, type ServerMemorySample } from '../../trace/trace-format.ts';
import { connect, type RedisTarget } from '../redis/redis-target.ts';
import { parseInfo } from '../redis/info-fields.ts';
import { microsSince } from '../support/monotonic-clock.ts';

export const MEMORY_INTERVAL_MS = 10;

export class MemorySampler {
  private readonly server: ServerMemorySample[] = [];
  private readonly client: ClientMemorySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private inFlight: Promise<void> | undefined;
  private failure: Error | undefined;
  private stopped = false;
  /** Sampling requests Redis has answered (each: 2 commands, 1 read event, 1 write event). */
  requests = 0;

  private runClientId = 0;
  private t0 = 0n;
  private intervalMs = MEMORY_INTERVAL_MS;

  private constructor(private readonly connection: Redis) {}

  /** Connects ahead of the run, so the handshake is not in the run's counts. */
  static async connect(target: RedisTarget, name: string): Promise<MemorySampler> {
    const connection = connect(target, name);
    await connection.connect();
    return new MemorySampler(connection);
  }

  /** Samples now, then every intervalMs, until stop(); times count from the run's t0. */
  start(runClientId: number, t0: bigint, intervalMs = MEMORY_INTERVAL_MS): void {
    this.runClientId = runClientId;
    this.t0 = t0;
    this.intervalMs = intervalMs;
    this.tick();
  }

  private tick(): void {
    if (this.stopped) return;
    const memory = process.memoryUsage();
    this.client.push({ atUs: microsSince(this.t0), rss: memory.rss, heapUsed: memory.heapUsed, external: memory.external });
    if (!this.inFlight && !this.failure) this.inFlight = this.askRedis().finally(() => (this.inFlight = undefined));
    this.timer = setTimeout(() => this.tick(), this.intervalMs);
  }

  private async askRedis(): Promise<void> {
    try {
      const results = await this.connection.pipeline().client('LIST', 'ID', String(this.runClientId)).info('memory').exec();
      const atUs = microsSince(this.t0);
      this.requests++;
      const [[listError, list], [infoError, info]] = results as [[Error | null, unknown], [Error | null, unknown]];
      if (listError || infoError) throw listError ?? infoError;
      const conn = parseClientLine(String(list));
      const usedMemory = Number(parseInfo(String(info)).get('used_memory'));
      if (conn && Number.isFinite(usedMemory)) this.server.push({ atUs, ...conn, usedMemory });
    } catch (error) {
      this.failure = error as Error; // the run goes on; the trace says what was sampled
    }
  }

  /** Stops sampling once the request in flight (if any) has answered; closes the connection. */
  async stop(): Promise<{ memory: Memory; requests: number }> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight;
    this.close();
    return {
      memory: {
        intervalMs: this.intervalMs,
        server: { source: MEMORY_SERVER_SOURCE, samples: this.server },
        client: { source: MEMORY_CLIENT_SOURCE, samples: this.client },
      },
      requests: this.requests,
    };
  }

  close(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.connection.disconnect();
  }
}

let fullGc: (() => void) | undefined;

/**
 * A full garbage collection before t0, so the client's first sample is what is really alive and the
 * run's growth above it is the run's own, not an earlier run's garbage. (V8 only hands out gc() to
 * code compiled after --expose-gc is set, hence the fresh context.)
 */
export function collectGarbage(): void {
  if (!fullGc) {
    setFlagsFromString('--expose-gc');
    fullGc = runInNewContext('gc') as () => void;
  }
  fullGc();
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
