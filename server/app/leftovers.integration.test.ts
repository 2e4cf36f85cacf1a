// Defect 10: after the backend is SIGKILLed mid-run, nothing of it is left: not its private
// redis-server, not strace, not /tmp/pipescope-redis-* nor /tmp/pipescope-strace-* (megabytes of
// wire bytes). Each runs under a watchdog (server/support/watched-process.ts) that notices the pipe
// from the backend close. The backend gets its own TMPDIR, so the test sees only its folders.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { straceAvailable } from '../probes/strace-probe.ts';
import { buildServer, descendantsOf, isAlive, LiveClient, startBackend, until } from '../test-support/backend-process.ts';

let tmp: string;

beforeAll(() => {
  expect(buildServer()).toBe('');
  tmp = mkdtempSync(join(tmpdir(), 'pipescope-leftovers-test-'));
}, 180_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

const ours = () => readdirSync(tmp).filter((name) => name.startsWith('pipescope-')).sort();

it.runIf(straceAvailable())('SIGKILL during a strace-traced run leaves no process and no temporary folder', async () => {
  const backend = await startBackend([], { TMPDIR: tmp });
  try {
    const client = await LiveClient.open(backend.wsUrl);
    client.send({ type: 'run', requestId: 'traced', spec: { command: 'PING', n: 100_000, modes: ['sequential'], strace: true } });
    await client.next((m) => m.type === 'run-events');
    expect(ours().map((name) => name.replace(/-[^-]+$/, ''))).toEqual(['pipescope-redis', 'pipescope-strace']);
    const helpers = descendantsOf(backend.process.pid!); // redis-server and strace, and their watchdogs
    expect(helpers.map((h) => h.command.split(' ')[0]!.replace(/^.*\//, ''))).toEqual(expect.arrayContaining(['redis-server', 'strace']));

    backend.process.kill('SIGKILL');
    await backend.exited;
    const pids = helpers.map((p) => p.pid);
    // Leaving nothing is the claim, not how fast: strace detaching from a busy redis-server took over 10 s once
    // in a clean-clone run on the loaded 2-core machine; alone, the test passes within the old 10 s.
    await until('every helper process to end', () => (pids.every((pid) => !isAlive(pid)) ? true : undefined), 30_000);
    await until('the temporary folders to go', () => (ours().length === 0 ? true : undefined), 10_000);
  } finally {
    await backend.stop();
  }
}, 120_000);
