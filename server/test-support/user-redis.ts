// For tests: a redis-server of the test's own, standing in for a user's Redis (Pipescope is given its
// URL, so it is not Pipescope's private one and outlives any backend): extra flags (a password,
// --maxmemory), its pid to stop it with SIGSTOP and SIGCONT, an observer connection.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { findFreePort } from '../support/free-port.ts';

export interface UserRedis {
  port: number;
  pid: number;
  /** redis://[:password@]127.0.0.1:port */
  url: string;
  /** A connection for the test itself. */
  observer: Redis;
  /** SIGSTOP: the connection stays open, nothing answers. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  stop(): Promise<void>;
}

export async function startUserRedis(flags: string[] = [], password?: string): Promise<UserRedis> {
  const port = await findFreePort();
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-user-redis-'));
  const server: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir,
    ...(password ? ['--requirepass', password] : []), ...flags], { stdio: 'ignore' });
  const exited = new Promise((resolve) => server.once('exit', resolve));
  let observer: Redis | undefined;
  for (let i = 0; !observer; i++) {
    const client = new Redis({ host: '127.0.0.1', port, ...(password ? { password } : {}), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    try {
      await client.connect();
      observer = client;
    } catch (error) {
      client.disconnect();
      if (i > 200) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const pid = server.pid!;
  return {
    port,
    pid,
    url: `redis://${password ? `:${encodeURIComponent(password)}@` : ''}127.0.0.1:${port}`,
    observer,
    pause: () => process.kill(pid, 'SIGSTOP'),
    resume: () => process.kill(pid, 'SIGCONT'),
    stop: async () => {
      observer.disconnect();
      if (server.exitCode === null && server.signalCode === null) {
        process.kill(pid, 'SIGCONT');
        server.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
