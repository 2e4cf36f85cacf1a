// For integration tests: a real private redis-server on a free port and a RedisSession on it (with
// its pid, so strace can attach), or the app serving one, started before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { startApp, type RunningApp } from '../app/http/http-app.ts';

export interface PrivateRedisSession {
  redis: PrivateRedis;
  session: RedisSession;
}

/** Call at the top of a test file; read the fields inside tests (they are set in beforeAll). */
export function usePrivateRedisSession(): PrivateRedisSession {
  const context = {} as PrivateRedisSession;
  beforeAll(async () => {
    context.redis = await startPrivateRedis();
    context.session = await RedisSession.open({ ...targetFromUrl(`redis://${context.redis.host}:${context.redis.port}`, true), pid: context.redis.pid });
  });
  afterAll(async () => {
    await context.session?.close();
    await context.redis?.stop();
  });
  return context;
}

export interface PrivateRedisApp {
  redis: PrivateRedis;
  app: RunningApp;
}

/** Call at the top of a test file: a private redis-server and the app (HTTP + /live) measuring it, on free ports. */
export function usePrivateRedisApp(): PrivateRedisApp {
  const context = {} as PrivateRedisApp;
  beforeAll(async () => {
    context.redis = await startPrivateRedis();
    context.app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${context.redis.host}:${context.redis.port}` });
  });
  afterAll(async () => {
    await context.app?.close();
    await context.redis?.stop();
  });
  return context;
}
