// The watchdog on its own, with `sleep` as the helper: it reports how the helper ended, removes the
// folder with it (or keeps it until released), and stops the helper when asked. That it also stops it
// when this process is SIGKILLed is tested with the real backend (app/leftovers.integration.test.ts).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { spawnWatched } from './watched-process.ts';

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-watchdog-test-'));
  writeFileSync(join(dir, 'data'), 'wire bytes');
  return dir;
}

/** The helper's pid: the watchdog's only child. */
async function helperPid(watchdogPid: number): Promise<number> {
  const { execFileSync } = await import('node:child_process');
  for (let i = 0; i < 100; i++) {
    const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(watchdogPid)], { encoding: 'utf8' });
    const line = out.split('\n').find((l) => /\bsleep\b/.test(l));
    if (line) return Number(line.trim().split(/\s+/)[0]);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the helper did not start');
}

it('a helper killed by someone else: its end is reported and its folder goes with it', async () => {
  const dir = folder();
  const watched = spawnWatched('sleep', ['60'], dir);
  process.kill(await helperPid(watched.watchdog.pid!), 'SIGKILL');
  expect(await watched.ended).toEqual({ status: 137, description: 'killed by SIGKILL' });
  await watched.gone;
  expect(existsSync(dir)).toBe(false);
});

it('release() stops the helper (SIGTERM) and removes the folder', async () => {
  const dir = folder();
  const watched = spawnWatched('sleep', ['60'], dir);
  await helperPid(watched.watchdog.pid!);
  await watched.release();
  expect(await watched.ended).toEqual({ status: 143, description: 'killed by SIGTERM' });
  expect(existsSync(dir)).toBe(false);
});

it('keepDir: after stop() the folder stays for reading, until release()', async () => {
  const dir = folder();
  const watched = spawnWatched('sleep', ['60'], dir, { keepDir: true });
  await helperPid(watched.watchdog.pid!);
  expect(await watched.stop()).toMatchObject({ description: 'killed by SIGTERM' });
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(existsSync(join(dir, 'data'))).toBe(true);
  await watched.release();
  expect(existsSync(dir)).toBe(false);
});

it('a helper that exits by itself: its status is reported', async () => {
  const dir = folder();
  const watched = spawnWatched('sh', ['-c', 'exit 3'], dir);
  expect(await watched.ended).toEqual({ status: 3, description: 'exited with status 3' });
  await watched.gone;
  expect(existsSync(dir)).toBe(false);
});
