// The project's root folder, found from this module whether it runs from server/ (tests) or from
// dist/node/server/ (the built app): the nearest folder above with Pipescope's package.json.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function projectRoot(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pipescope') {
      return (cached = dir);
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('Could not find the Pipescope project root');
    dir = parent;
  }
}

export function projectVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
