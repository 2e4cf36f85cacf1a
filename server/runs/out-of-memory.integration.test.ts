// A Redis out of memory (a redis-server of the test's own, --maxmemory 1mb with noeviction, so every
// write is refused with OOM) does not make a run end as if all went well, nor blame MONITOR: the run
// fails, saying how many commands Redis refused and why, and how to fix it. With a little more room,
// a run whose later commands are refused says where the refusals began. Its keys are deleted all the same.
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../support/free-port.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { keysLeftAfter } from '../test-support/run-keys.ts';
import { executeRun } from './run-executor.ts';

let server: ChildProcess;
let admin: Redis;
let session: RedisSession;

beforeAll(async () => {
  const port = await findFreePort();
  server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--maxmemory', '1mb', '--maxmemory-policy', 'noeviction'], { stdio: 'ignore' });
  for (let i = 0; ; i++) {
    admin = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null });
    admin.on('error', () => {});
    try {
      await admin.connect();
      break;
    } catch (error) {
      admin.disconnect();
      if (i > 100) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  session = await RedisSession.open(targetFromUrl(`redis://127.0.0.1:${port}`));
}, 30_000);

afterAll(async () => {
  await session?.close();
  admin?.disconnect();
  server?.kill('SIGTERM');
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
