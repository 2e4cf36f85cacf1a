// Defect 6: the private redis-server killed with SIGKILL is restarted (with backoff), the session is
// pointed at the new one and says so (redis-status for browsers), and the next run works; its old
// folder is gone with it (defect 10's watchdog).
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisStatus } from '../../trace/protocol/live-protocol.ts';
import { executeRun } from './run-executor.ts';
import { openRedis, type OpenedRedis } from '../redis/open-redis.ts';
import { restartDelayMs } from '../redis/private-redis-keeper.ts';

let opened: OpenedRedis;

beforeAll(async () => {
  opened = await openRedis(undefined);
});

afterAll(async () => {
  await opened?.close();
});

async function until<T>(what: string, check: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function redisDir(pid: number): string {
  return `/proc/${pid}/cwd`;
}

describe('private redis-server restarts', () => {
  it('backs off 0.1 s, 0.2 s, 0.4 s … up to 10 s', () => {
    expect([0, 1, 2, 3, 10, 50].map(restartDelayMs)).toEqual([100, 200, 400, 800, 10_000, 10_000]);
  });

  it('after kill -9: told down then restarted, and within a few seconds a run works again', async () => {
    const { session, keeper } = opened;
    const statuses: RedisStatus[] = [];
    session.onChange((status) => statuses.push(status));
    const before = keeper!.current;
    expect((await executeRun(session, 'pipeline', { command: 'SET', n: 100, valueBytes: 16 })).commands).toHaveLength(100);
    const oldDir = (await import('node:fs')).realpathSync(redisDir(before.pid));
    expect(existsSync(oldDir)).toBe(true);

    const killedAt = Date.now();
    process.kill(before.pid, 'SIGKILL');
    const up = await until('the restarted status', () => statuses.find((s) => s.up));
    const restartMs = Date.now() - killedAt;
    expect(statuses[0]).toMatchObject({ up: false, embedded: true });
    expect(statuses[0]!.message).toMatch(/^The private redis-server stopped at [\d:]+ \(killed by SIGKILL\); restarting it…$/);
    expect(up.message).toMatch(/^restarted at [\d:]+: the private redis-server stopped .*\(killed by SIGKILL\); this is a fresh, empty one \(pid \d+\)$/);
    expect(keeper!.current.pid).not.toBe(before.pid);
    expect(keeper!.current.port).toBe(before.port); // the old port was free again
    expect(session.target.pid).toBe(keeper!.current.pid);
    expect(existsSync(oldDir)).toBe(false);

    const doc = await executeRun(session, 'pipeline', { command: 'SET', n: 100, valueBytes: 16 });
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    expect((await session.status()).up).toBe(true);
    console.log(`redis-server restarted ${restartMs} ms after kill -9; the next run worked`);
  });

  it('a run under way when Redis is killed fails with a message, and the next one works', async () => {
    const { session, keeper } = opened;
    const running = executeRun(session, 'sequential', { command: 'PING', n: 1_000_000, valueBytes: 0 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(keeper!.current.pid, 'SIGKILL');
    await expect(running).rejects.toThrow(/^the private redis-server \(pid \d+\) stopped during the run; Pipescope restarts it$/);
    await until('the restart', () => (session.downReason === undefined && keeper!.restarts >= 2 ? true : undefined));
    const doc = await executeRun(session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0 });
    expect(doc.commands).toHaveLength(10);
  });

  it('killed again and again: each restart waits longer (backoff), and it still comes back', async () => {
    const { keeper } = opened;
    const took: number[] = [];
    for (let i = 0; i < 3; i++) {
      const restarts = keeper!.restarts;
      const killedAt = performance.now();
      process.kill(keeper!.current.pid, 'SIGKILL');
      await until('the restart', () => (keeper!.restarts > restarts ? true : undefined));
      took.push(performance.now() - killedAt);
    }
    // Killed within a minute of its last restart, each time: the scale goes up a step every time.
    took.forEach((ms, i) => expect(ms).toBeGreaterThanOrEqual(restartDelayMs(i + 1)));
    expect(took[2]!).toBeGreaterThan(took[0]!);
    console.log(`three kills in a row: back after ${took.map((ms) => ms.toFixed(0)).join(', ')} ms`);
    expect((await executeRun(opened.session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0 })).commands).toHaveLength(10);
  });
});

