// The size of pipescope-player.js, the custom element's one script, as a docs page downloads it: the
// built file (dist/web, npm run build:web) gzipped at level 9 (what a static host or CDN serves), beside
// the goal of ≤ 100 kB (100,000 bytes). Measured, not timed: the same build gives the same figure.
// Beside it, pipescope-decode-worker.js, fetched only once a trace is decoded: its size is told, with no goal.
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../e2e/app-process.ts';
import type { Finding } from './bench-report.ts';
import { spreadOf } from './side-by-side.ts';

export const PLAYER_SCRIPT = join(ROOT, 'dist', 'web', 'pipescope-player.js');
export const DECODE_WORKER_SCRIPT = join(ROOT, 'dist', 'web', 'pipescope-decode-worker.js');
/** The goal: at most 100 kB gzipped. */
export const PLAYER_GZIP_GOAL_BYTES = 100_000;

/** A built file's bytes, minified and gzipped at level 9. */
function sizesOf(file: string, log: (line: string) => void): { raw: number; gzipped: number } {
  if (!existsSync(file)) throw new Error(`${file} is missing: npm run build:web builds it`);
  const bytes = readFileSync(file);
  const sizes = { raw: bytes.length, gzipped: gzipSync(bytes, { level: 9 }).length };
  log(`${basename(file)}: ${sizes.raw.toLocaleString('en-US')} B minified, ${sizes.gzipped.toLocaleString('en-US')} B gzipped (level 9)`);
  return sizes;
}

export function playerSizeBench(log: (line: string) => void, file = PLAYER_SCRIPT, workerFile = DECODE_WORKER_SCRIPT): Finding[] {
  const player = sizesOf(file, log);
  const worker = sizesOf(workerFile, log);
  return [
    { name: 'pipescope-player.js, minified', unit: 'bytes', spread: spreadOf([player.raw]), goal: null, how: `size of ${file}` },
    {
      name: 'pipescope-player.js, gzipped', unit: 'bytes', spread: spreadOf([player.gzipped]), goal: { bound: 'at most', value: PLAYER_GZIP_GOAL_BYTES },
      how: `zlib gzip level 9 of ${file}`,
    },
    {
      name: 'pipescope-decode-worker.js, gzipped', unit: 'bytes', spread: spreadOf([worker.gzipped]), goal: null,
      how: `zlib gzip level 9 of ${workerFile}, fetched once a trace is decoded`,
    },
  ];
}
