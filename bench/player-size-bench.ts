// The size of pipescope-player.js, the custom element's one script, as a docs page downloads it: the
// built file (dist/web, npm run build:web) gzipped at level 9 (what a static host or CDN serves), beside
// the goal of ≤ 100 kB (100,000 bytes). Measured, not timed: the same build gives the same figure.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../e2e/app-process.ts';
import type { Finding } from './bench-report.ts';
import { spreadOf } from './side-by-side.ts';

export const PLAYER_SCRIPT = join(ROOT, 'dist', 'web', 'pipescope-player.js');
/** The goal: at most 100 kB gzipped. */
export const PLAYER_GZIP_GOAL_BYTES = 100_000;

export function playerSizeBench(log: (line: string) => void, file = PLAYER_SCRIPT): Finding[] {
  if (!existsSync(file)) throw new Error(`${file} is missing: npm run build:web builds it`);
  const raw = readFileSync(file);
  const gzipped = gzipSync(raw, { level: 9 }).length;
  log(`pipescope-player.js: ${raw.length.toLocaleString('en-US')} B minified, ${gzipped.toLocaleString('en-US')} B gzipped (level 9)`);
  return [
    { name: 'pipescope-player.js, minified', unit: 'bytes', spread: spreadOf([raw.length]), goal: null, how: `size of ${file}` },
    {
      name: 'pipescope-player.js, gzipped', unit: 'bytes', spread: spreadOf([gzipped]), goal: { bound: 'at most', value: PLAYER_GZIP_GOAL_BYTES },
      how: `zlib gzip level 9 of ${file}`,
    },
  ];
}
