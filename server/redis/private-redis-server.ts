// Starts and stops Pipescope's own private redis-server: loopback only, a free port, no persistence,
// so runs never touch anyone's data. The process is stopped on exit, SIGINT and SIGTERM.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findFreePort } from '../support/free-port.ts';

export interface PrivateRedis {
  host: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export class RedisServerMissingError extends Error {
  override name = 'RedisServerMissingError';
}

const live = new Set<ChildProcess>();
let exitHooksInstalled = false;

/** Finds redis-server on PATH (or REDIS_SERVER_BIN); null when absent. */
export function findRedisServerBinary(): string | null {
  const candidate = process.env['REDIS_SERVER_BIN'] ?? 'redis-server';
  const probe = spawnSync(candidate, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? candidate : null;
}

export async function startPrivateRedis(options: { host?: string; timeoutMs?: number } = {}): Promise<PrivateRedis> {
  const binary = findRedisServerBinary();
  if (!binary) {
    throw new RedisServerMissingError(
      'redis-server was not found. Install it (Debian: sudo apt-get install -y redis-server), ' +
        'or point Pipescope at an existing Redis with REDIS_URL=redis://host:port.',
    );
  }
  installExitHooks();
  const host = options.host ?? '127.0.0.1';
  const port = await findFreePort(host);
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-redis-'));
  const child = spawn(
    'sh',
    ['-c', WATCHDOG, binary, '--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no', '--dir', dir,
      '--daemonize', 'no', '--loglevel', 'warning', '--protected-mode', 'yes'],
    { stdio: ['pipe', 'ignore', 'pipe'] },
  );
  live.add(child);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  exited.then(() => {
    live.delete(child);
    rmSync(dir, { recursive: true, force: true });
  });

  const stop = async (): Promise<void> => {
    child.stdin?.end(); // the watchdog stops redis-server and waits for it
    await exited;
  };
  try {
    const pid = await waitForPing(host, port, options.timeoutMs ?? 10_000, () => child.exitCode !== null);
    return { host, port, pid, stop };
  } catch (error) {
    await stop();
    throw new Error(`redis-server did not start on ${host}:${port}: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}`);
  }
}

/**
 * redis-server runs under a tiny shell watchdog that holds the read end of a pipe from this process:
 * when Pipescope goes away, however it dies (even SIGKILL), the pipe closes and redis-server is
 * stopped, so no orphan is left listening.
 */
const WATCHDOG = `"$0" "$@" & server=$!
trap 'kill $server 2>/dev/null' TERM INT HUP
read -r _ || true
kill $server 2>/dev/null
wait $server`;

/** Waits until the server answers PING; returns its process id (INFO server), not the watchdog's. */
async function waitForPing(host: string, port: number, timeoutMs: number, hasExited: () => boolean): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error('the process exited');
    const client = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') {
        return Number(/process_id:(\d+)/.exec(await client.info('server'))?.[1] ?? 0);
      }
    } catch (error) {
      if (Date.now() > deadline) throw error;
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of live) child.kill('SIGTERM'); // the watchdog's trap stops redis-server
  };
  process.once('exit', killAll);
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  for (const signal of Object.keys(codes) as (keyof typeof codes)[]) {
    process.on(signal, () => {
      killAll();
      // A program with its own handler (main.ts) shuts down in its own time; otherwise, exit as the
      // signal would have, which a handler's mere presence prevents.
      if (process.listenerCount(signal) === 1) process.exit(codes[signal]);
    });
  }
}
