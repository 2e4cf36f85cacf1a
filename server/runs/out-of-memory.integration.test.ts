// A Redis out of memory (a redis-server of the test's own, --maxmemory 1mb with noeviction, so every
// write is refused with OOM) does not make a run end as if all went well, nor blame MONITOR: the run
// fails, saying how many commands Redis refused and why, and how to fix it. With a little more room,
// a run whose later commands are refused says where the refusals began. Its keys are deleted all the same.
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { keysLeftAfter } from '../test-support/run-keys.ts';
import { startUserRedis, type UserRedis } from '../test-support/user-redis.ts';
import { executeRun } from './run-executor.ts';

let redis: UserRedis;
let admin: Redis;
let session: RedisSession;

beforeAll(async () => {
  redis = await startUserRedis(['--maxmemory', '1mb', '--maxmemory-policy', 'noeviction']);
  admin = redis.observer;
  session = await RedisSession.open(targetFromUrl(redis.url));
}, 30_000);

afterAll(async () => {
  await session?.close();
  await redis?.stop();
});

const OOM = /^Redis refused 2,000 of the run's 2,000 commands \(every one\): OOM command not allowed when used memory > 'maxmemory'\. — Redis is out of memory/;

describe('Redis out of memory', () => {
  it('a SET run whose every reply is OOM fails and says so', async () => {
    await expect(executeRun(session, 'pipeline', { command: 'SET', n: 2000, valueBytes: 1000, memory: false })).rejects.toThrow(OOM);
    expect(await keysLeftAfter(admin)).toEqual([]);
  });

  it('with MONITOR on, the refusal is named, not "MONITOR saw 0 of the run\'s 2000 commands"', async () => {
    await expect(executeRun(session, 'sequential', { command: 'SET', n: 2000, valueBytes: 1000, monitor: true, memory: false })).rejects.toThrow(OOM);
    expect(await keysLeftAfter(admin)).toEqual([]);
  });

  it('refusals that begin part-way are counted from where they began', async () => {
    const used = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
    await admin.config('SET', 'maxmemory', String(used + 400_000));
    try {
      const run = executeRun(session, 'pipeline', { command: 'SET', n: 2000, valueBytes: 1000, memory: false, cold: true });
      await expect(run).rejects.toThrow(/^Redis refused 1,\d{3} of the run's 2,000 commands \(the first at command \d{3}\): OOM command not allowed/);
    } finally {
      await admin.config('SET', 'maxmemory', '1mb');
    }
    expect(await keysLeftAfter(admin)).toEqual([]);
  });

  it('a PING run, which needs no memory, still runs', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'PING', n: 100, valueBytes: 0, memory: false });
    expect(doc.commands).toHaveLength(100);
  });
});
