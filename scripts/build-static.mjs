#!/usr/bin/env node
// `npm run build:static`: the backend-less static site in dist/static/, for any static host under any
// sub-path (GitHub Pages: https://user.github.io/pipescope/). The same two Vite builds as build:web (the
// app with its embed/ page, then pipescope-player.js) with VITE_PIPESCOPE_STATIC=1, which switches the app
// to its offline mode (web/src/base/site-mode.ts) and the output to dist/static; public/ brings theme.js,
// prefetch.js, the tour's recordings (tour/) and the recorded runs (traces/, with index.json).
// Then it adds a Content-Security-Policy <meta> to index.html (a static host cannot be asked for headers)
// and checks the result: every file the site needs is there, no HTML or CSS URL starts with "/" (such a
// URL would leave the sub-path), and no source map was written. Plain Node; run after
// scripts/ensure-ready.mjs (npm run build:static does).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'static');
const quiet = process.argv.includes('--quiet');
const say = (text) => quiet || console.log(`[pipescope] ${text}`);

/**
 * The static site's policy, as the live server's (server/app/access/security-headers.ts) minus what a static page
 * has no use for: the WebSocket (connect-src allows this site and https: only, for ?trace= links to traces on
 * other https hosts, which need CORS there anyway). frame-ancestors cannot be set from a <meta> (browsers
 * ignore it there); the embed/ page is the one meant to be framed.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' https:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** What the site must hold, relative to dist/static. */
const REQUIRED = ['index.html', 'embed/index.html', 'pipescope-player.js', 'pipescope-decode-worker.js', 'theme.js', 'prefetch.js', 'favicon.svg', 'tour/index.json', 'traces/index.json'];

function vite(args) {
  const env = { ...process.env, VITE_PIPESCOPE_STATIC: '1' };
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', ...args], { cwd: root, env, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit' });
  if (result.status !== 0) fail(`vite build ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
}

function fail(message) {
  console.error(`[pipescope] build:static: ${message}`);
  process.exit(1);
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/** Root-absolute URLs ("/x", not "//host") in HTML attributes and CSS url(). */
const ABSOLUTE_URL = /\b(?:src|href)\s*=\s*["']\/(?!\/)[^"']*["']|url\(\s*["']?\/(?!\/)[^)"']*/g;

say('Building the static site into dist/static…');
vite([]);
vite(['-c', 'vite.player.config.ts']);

const indexHtml = join(out, 'index.html');
const html = readFileSync(indexHtml, 'utf8');
if (!html.includes('<meta charset="utf-8" />')) fail('dist/static/index.html has no <meta charset="utf-8" /> to put the policy after');
writeFileSync(
  indexHtml,
  html.replace(
    '<meta charset="utf-8" />',
    `<meta charset="utf-8" />\n    <meta http-equiv="Content-Security-Policy" content="${CSP}" />\n    <meta name="referrer" content="no-referrer" />`,
  ),
);

const missing = REQUIRED.filter((file) => !existsSync(join(out, file)));
if (missing.length > 0) fail(`missing from dist/static: ${missing.join(', ')}`);
const absolute = filesUnder(out)
  .filter((file) => /\.(html|css)$/.test(file))
  .flatMap((file) => [...readFileSync(file, 'utf8').matchAll(ABSOLUTE_URL)].map((m) => `${relative(out, file)}: ${m[0]}`));
if (absolute.length > 0) fail(`URLs that would leave a sub-path:\n  ${absolute.join('\n  ')}`);
// Source maps are for developers (dist/web has them); a deployed site would ship 3 MB nobody fetches.
const maps = filesUnder(out).filter((file) => file.endsWith('.map')).map((file) => relative(out, file));
if (maps.length > 0) fail(`source maps in dist/static (vite.config.ts builds the static site without them): ${maps.join(', ')}`);
// The stamp ensure-ready --build-static compares with the sources (it writes it too, after calling this).
writeFileSync(join(root, 'dist', '.static-built'), `${new Date().toISOString()}\n`);
say('Static site ready in dist/static/ (serve the folder as it is, from any path).');
