// Who recorded a trace: Pipescope's version, the client library and the runtime, read from the
// installed packages rather than written by hand.
import { createRequire } from 'node:module';
import type { Recorder } from '../trace/trace-builder.ts';
import { projectVersion } from './project-root.ts';

const require = createRequire(import.meta.url);

export function recorderInfo(): Recorder {
  const ioredis = require('ioredis/package.json') as { version: string };
  return { tool: 'pipescope', version: projectVersion(), client: `ioredis ${ioredis.version}`, runtime: `node ${process.version}` };
}
