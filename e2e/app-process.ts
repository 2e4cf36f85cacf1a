// Starts the built app the way `npm start` does (node dist/node/server/app/main.js, private redis-server)
// on a free port, and stops it again. Tests see exactly what a user's browser sees.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../server/support/project-root.ts';

/** Found by its package.json, so this module works from e2e/ and compiled into dist/bench/ alike. */
export const ROOT = projectRoot();

/** What a test leaves to look at when it fails (git-ignored): golden mismatches, diffs. */
export const ARTIFACTS = join(ROOT, 'e2e', 'artifacts');

export interface AppProcess {
  url: string;
  child: ChildProcess;
  /** What the app printed so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

export async function startAppProcess(extraArgs: string[] = []): Promise<AppProcess> {
  const main = join(ROOT, 'dist', 'node', 'server', 'app', 'main.js');
  if (!existsSync(main) || !existsSync(join(ROOT, 'dist', 'web', 'index.html'))) {
    throw new Error('The app is not built: run `npm test` (it builds first) or `npm run build`.');
  }
  const child = spawn(process.execPath, [main, '--port', '0', ...extraArgs], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const check = setInterval(() => {
      const match = /running at (\S+)/.exec(output);
      if (match) {
        clearInterval(check);
        resolve(match[1]!);
      } else if (child.exitCode !== null) {
        clearInterval(check);
        reject(new Error(`The app exited: ${output}`));
      }
    }, 25);
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000); // a hung shutdown must not hang the suite
      await exited;
      clearTimeout(force);
    },
  };
}
