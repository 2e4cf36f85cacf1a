// The small client programs shipped with Pipescope that the backend runs through the observing port
// (clients/): redis-py's pipeline() and the Redis docs' Ruby benchmark. Each says so clearly when its
// library is missing (exit 3), and how to install it.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../support/project-root.ts';

/** Debian's interpreters: python3-redis and ruby-redis install for these, not for a pyenv or rbenv one. */
export const PYTHON = '/usr/bin/python3';
export const RUBY = 'ruby';

export function observeClientPath(name: string): string {
  return join(projectRoot(), 'server', 'observe', 'clients', name);
}

export interface ClientRun {
  /** The program's JSON lines. */
  lines: unknown[];
}

/** Runs a client program; rejects with its own message (e.g. how to install a missing library). */
export function runObserveClient(interpreter: string, script: string, redisUrl: string, args: string[], timeoutMs = 120_000): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    execFile(interpreter, [observeClientPath(script), ...args], { timeout: timeoutMs, env: { ...process.env, PIPESCOPE_REDIS_URL: redisUrl } }, (error, stdout, stderr) => {
      if (error) {
        const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
        reject(new Error(missing ? `${interpreter} is not installed (Debian: apt-get install ${interpreter.endsWith('python3') ? 'python3-redis' : 'ruby-redis'})` : (stderr.trim() || error.message)));
        return;
      }
      resolve({ lines: stdout.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown) });
    });
  });
}
