// Starts and stops Pipescope's own private redis-server: loopback only, a free port, no persistence,
// so runs never touch anyone's data. The process is stopped on exit, SIGINT and SIGTERM, and by its
// watchdog if this process is killed; its folder goes with it. An end nobody asked for is reported
// (onUnexpectedExit), for private-redis-keeper.ts to restart it.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findFreePort } from '../support/free-port.ts';
import { spawnWatched, type WatchedProcess } from '../support/watched-process.ts';

export interface PrivateRedis {
  host: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
  /**
   * Called once if redis-server ends without stop() (killed, crashed): how it ended ("killed by
   * SIGKILL") and the last line it printed.
   */
  onUnexpectedExit(listener: (how: string, lastLine: string) => void): void;
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

export interface PrivateRedisOptions {
  host?: string;
  /** A port to use (a restart reuses its old one); default: a free one. */
  port?: number;
  timeoutMs?: number;
}

export async function startPrivateRedis(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
  const binary = findRedisServerBinary();
  if (!binary) {
    throw new RedisServerMissingError(
      'redis-server was not found. Install it (Debian: sudo apt-get install -y redis-server), ' +
        'or point Pipescope at an existing Redis with REDIS_URL=redis://host:port.',
    );
  }
  installExitHooks();
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? (await findFreePort(host));
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-redis-'));
  // The watchdog (support/watched-process.ts) stops redis-server when this process goes away, however
  // it dies (even SIGKILL), and removes the folder when redis-server ends, however it ends.
  const watched = spawnWatched(binary, ['--port', String(port), '--bind', host, '--save', '', '--appendonly', 'no', '--dir', dir,
    '--daemonize', 'no', '--loglevel', 'warning', '--protected-mode', 'yes'], dir);
  const child = watched.watchdog;
  trackLiveWatchdog(watched);
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-2000)));
  let stopping = false;

  const stop = async (): Promise<void> => {
    stopping = true;
    await watched.release();
  };
  try {
    const pid = await waitForPing(host, port, realpathSync(dir), options.timeoutMs ?? 10_000, () => child.exitCode !== null);
    return {
      host,
      port,
      pid,
      stop,
      onUnexpectedExit: (listener) => {
        void watched.ended.then((end) => {
          if (!stopping) listener(end.description, output.trim().split('\n').at(-1) ?? '');
        });
      },
    };
  } catch (error) {
    await stop();
    throw new Error(`redis-server did not start on ${host}:${port}: ${(error as Error).message}${output ? `\n${output.trim()}` : ''}`);
  }
}

/**
 * Waits until the server answers PING; returns its process id (INFO server), not the watchdog's. The
 * server must be ours (its dir is our folder): a reused port may have been taken by another Redis.
 */
async function waitForPing(host: string, port: number, dir: string, timeoutMs: number, hasExited: () => boolean): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited()) throw new Error('the process exited');
    const client = new Redis({ host, port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
    client.on('error', () => {});
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') {
        const [, serverDir] = (await client.config('GET', 'dir')) as [string, string];
        if (serverDir !== dir) throw new Error(`another Redis (dir ${serverDir}) answers on port ${port}`);
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

/** A watchdog stopped (SIGTERM) when this process exits or is signalled, until it is gone. */
export function trackLiveWatchdog(watched: WatchedProcess): void {
  live.add(watched.watchdog);
  void watched.gone.then(() => live.delete(watched.watchdog));
}

/** On exit, SIGINT, SIGTERM and SIGHUP, every tracked watchdog is told to stop its server. */
export function installExitHooks(): void {
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
