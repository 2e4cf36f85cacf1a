// Faults in the middle of runs, against the built backend: Redis killed (kill -9), the delay proxy's
// connection to Redis closed (CLIENT KILL), a tab closed; each time the run ends with its reason, the
// run's keys are gone, CLIENT LIST is back to its baseline and the next run works. Then the backend
// itself stopped mid-run by SIGTERM and by SIGKILL: no process and no temporary folder is left.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { straceAvailable } from '../server/probes/strace-probe.ts';
import { buildServer, descendantsOf, isAlive, LiveClient, startBackend, until, type Backend } from '../server/test-support/backend-process.ts';
import { clientNames, figure, observe, requestEnd, runKeys } from './hard-support.ts';

let backend: Backend;
let observer: Redis;
let baseline: string[];
const survived: string[] = [];

beforeAll(async () => {
  expect(buildServer()).toBe('');
  backend = await startBackend();
  observer = await observe(backend.redisAddress!);
  baseline = await clientNames(observer);
});

afterAll(async () => {
  observer?.disconnect();
  await backend?.stop();
  figure('faults survived', survived.join('; '));
});

/** The run's keys gone and only Pipescope's standing connections left, within a few seconds. */
async function cleanAgain(): Promise<void> {
  await until('no run key and CLIENT LIST back to its baseline', async () => {
    const keys = await runKeys(observer);
    const names = await clientNames(observer);
    return keys.length === 0 && JSON.stringify(names) === JSON.stringify(baseline) ? true : undefined;
  }, 15_000);
}

async function nextRunWorks(client: LiveClient, requestId: string): Promise<void> {
  client.send({ type: 'run', requestId, spec: { command: 'SET', n: 1000, valueBytes: 16, modes: ['sequential', 'pipeline'], repeats: 1 } });
  expect((await requestEnd(client, requestId)).message.type).toBe('request-done');
}

describe('faults mid-run', () => {
  it('Redis killed: the run fails saying so, Redis restarts, the next run works', async () => {
    const client = await LiveClient.open(backend.wsUrl);
    client.send({ type: 'run', requestId: 'doomed', spec: { command: 'SET', n: 1_000_000, valueBytes: 16, modes: ['sequential'], confirmLongRun: true } });
    await client.next((m) => m.type === 'run-events' && m.requestId === 'doomed');
    const pid = Number(/process_id:(\d+)/.exec(await observer.info('server'))![1]);
    process.kill(pid, 'SIGKILL');
    const end = await requestEnd(client, 'doomed');
    expect(end.message).toMatchObject({ type: 'error', message: expect.stringMatching(/the private redis-server \(pid \d+\) stopped during the run; Pipescope restarts it/) });
    await client.next((m) => m.type === 'redis-status' && m.redis.up && /^restarted/.test(m.redis.message ?? ''), 0, 20_000);
    observer.disconnect();
    observer = await observe(backend.redisAddress!); // the same port, a fresh redis-server
    await nextRunWorks(client, 'after-kill');
    await cleanAgain();
    client.close();
    survived.push('Redis killed mid-run');
  });

  it("the delay proxy's connection to Redis closed: the run fails saying so, its keys are deleted", async () => {
    const client = await LiveClient.open(backend.wsUrl);
    client.send({ type: 'run', requestId: 'cut', spec: { command: 'SET', n: 5_000, valueBytes: 16, rttMs: 2, modes: ['sequential'] } });
    await client.next((m) => m.type === 'run-events' && m.requestId === 'cut');
    const line = String(await observer.call('CLIENT', 'LIST')).split('\n').find((l) => / name=pipescope-run-/.test(l))!;
    await observer.call('CLIENT', 'KILL', 'ID', /\bid=(\d+)/.exec(line)![1]!);
    const end = await requestEnd(client, 'cut');
    expect(end.message).toMatchObject({ type: 'error', message: expect.stringMatching(/closed the run's connection/) });
    await cleanAgain();
    await nextRunWorks(client, 'after-cut');
    client.close();
    survived.push('delay proxy upstream closed mid-run');
  });

  it.each([
    ['a 1,000,000-SET pipeline', { command: 'SET', n: 1_000_000, valueBytes: 268, modes: ['pipeline'] }],
    ['a 200,000-SET sequential run', { command: 'SET', n: 200_000, valueBytes: 16, modes: ['sequential'] }],
  ])('a tab closed during %s: the run stops, its keys are deleted', async (what, spec) => {
    const leaving = await LiveClient.open(backend.wsUrl);
    leaving.send({ type: 'run', requestId: 'gone', spec });
    await leaving.next((m) => m.type === 'run-events' && m.requestId === 'gone');
    leaving.socket.terminate();
    await cleanAgain();
    const staying = await LiveClient.open(backend.wsUrl);
    await nextRunWorks(staying, 'after-close');
    staying.close();
    survived.push(`tab closed during ${what}`);
  });
});

describe.runIf(straceAvailable())('the backend stopped mid-run', () => {
  it.each(['SIGTERM', 'SIGKILL'] as const)('%s during a strace-traced run: no process and no temporary folder left', async (signal) => {
    const tmp = mkdtempSync(join(tmpdir(), 'pipescope-hard-'));
    const doomed = await startBackend([], { TMPDIR: tmp });
    try {
      const client = await LiveClient.open(doomed.wsUrl);
      client.send({ type: 'run', requestId: 'traced', spec: { command: 'PING', n: 100_000, modes: ['sequential'], strace: true } });
      await client.next((m) => m.type === 'run-events');
      const helpers = descendantsOf(doomed.process.pid!);
      const names = helpers.map((h) => h.command.split(' ')[0]!.replace(/^.*\//, ''));
      expect(names).toEqual(expect.arrayContaining(['redis-server', 'strace']));
      expect(readdirSync(tmp).length).toBe(2);
      doomed.process.kill(signal);
      const exit = await doomed.exited;
      if (signal === 'SIGTERM') expect(exit.code).toBe(143);
      await until('every helper process to end', () => (helpers.every((h) => !isAlive(h.pid)) ? true : undefined), 15_000);
      await until('its temporary folders to go', () => (readdirSync(tmp).length === 0 ? true : undefined), 15_000);
      survived.push(`backend ${signal} mid-run (${names.join(', ')} ended, folders removed)`);
    } finally {
      await doomed.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
