// The auth relay's folder outlives a backend killed with SIGKILL mid-sweep (nothing in the process can
// run then), so the next relay on the machine removes it: a real relay in another process (the built
// module), killed with SIGKILL, its folder found and then gone; a live process's folder stays.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer } from '../test-support/backend-process.ts';
import { projectRoot } from '../support/project-root.ts';
import { BenchmarkAuthRelay, removeStaleRelayFolders } from './benchmark-auth-relay.ts';

/** A node process holding a relay (the built module) until killed; resolves with it and its socket's path. */
async function relayInAnotherProcess(): Promise<{ pid: number; path: string; kill: () => Promise<void> }> {
  const module = join(projectRoot(), 'dist', 'node', 'server', 'runs', 'benchmark-auth-relay.js');
  const child = spawn('node', ['-e', `import(${JSON.stringify(module)}).then(async ({ BenchmarkAuthRelay }) => {
    const relay = await BenchmarkAuthRelay.start({ host: '127.0.0.1', port: 9 }, ['secret']);
    console.log(relay.path);
    setInterval(() => {}, 1000);
  })`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const path = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', () => reject(new Error('the relay process ended')));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return { pid: child.pid!, path, kill: async () => { child.kill('SIGKILL'); await exited; } };
}

let live: Awaited<ReturnType<typeof relayInAnotherProcess>>;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  live = await relayInAnotherProcess();
}, 120_000);

afterAll(async () => {
  await live?.kill();
  removeStaleRelayFolders();
});

it('a relay folder left by a process killed with SIGKILL is removed by the next relay; a live one is kept', async () => {
  const killed = await relayInAnotherProcess();
  const folder = dirname(killed.path);
  expect(basename(folder)).toMatch(new RegExp(`^pipescope-relay-${killed.pid}-`));
  await killed.kill();
  expect(existsSync(folder)).toBe(true); // SIGKILL: nothing ran to remove it

  const next = await BenchmarkAuthRelay.start({ host: '127.0.0.1', port: 9 }, ['secret']);
  try {
    expect(existsSync(folder)).toBe(false);
    expect(existsSync(dirname(live.path))).toBe(true); // its process still runs: its relay is in use
  } finally {
    await next.close();
  }
}, 60_000);
