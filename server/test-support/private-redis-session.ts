// For integration tests: a real private redis-server on a free port and a RedisSession on it (with
// its pid, so strace can attach), started before the file's tests and stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';

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
