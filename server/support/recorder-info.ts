// Who recorded a trace: Pipescope's version, the client that issued the commands and the runtime,
// read from the installed packages rather than written by hand.
import { createRequire } from 'node:module';
import type { Recorder } from '../../trace/format/trace-builder.ts';
import { projectVersion } from './project-root.ts';

const require = createRequire(import.meta.url);

export function ioredisVersion(): string {
  return (require('ioredis/package.json') as { version: string }).version;
}

/** node-redis's version: the `redis` package (its @redis/client is released with the same number). */
export function nodeRedisVersion(): string {
  return (require('redis/package.json') as { version: string }).version;
}

export function recorderInfo(client: string): Recorder {
  return { tool: 'pipescope', version: projectVersion(), client, runtime: `node ${process.version}` };
}
