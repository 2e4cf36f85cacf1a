// How a probe's worker thread connects to Redis: its own ioredis connection, never retried, never queued
// offline, never auto-pipelined, to the run's target (with its TLS options). The worker sources are
// evaluated strings (memory-sampler-worker.ts, neighbor-client-worker.ts) that cannot import, so the
// options travel in workerData: these, with the ioredis module's URL.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { tlsOptions, type RedisTarget } from '../redis/redis-target.ts';

/** The ioredis module, for the worker's dynamic import(). */
export const IOREDIS_URL = pathToFileURL(createRequire(import.meta.url).resolve('ioredis')).href;

/**
 * workerData fields for a worker's connection: `new Redis(url, { ...redisOptions, retryStrategy: () => null })`
 * after `import(ioredisUrl)` (a function cannot cross to the worker, so it adds retryStrategy itself).
 */
export function workerConnection(target: RedisTarget, name: string): { ioredisUrl: string; url: string; redisOptions: Record<string, unknown> } {
  return {
    ioredisUrl: IOREDIS_URL,
    url: target.url,
    redisOptions: {
      ...(target.url.startsWith('rediss:') ? { tls: tlsOptions(target) } : {}),
      lazyConnect: true, connectionName: name, enableOfflineQueue: false, maxRetriesPerRequest: 0,
      enableAutoPipelining: false, connectTimeout: 5000,
    },
  };
}
