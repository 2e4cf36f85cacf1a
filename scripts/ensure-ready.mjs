#!/usr/bin/env node
// Makes a fresh clone ready for `npm start` / `npm test` with nothing installed by hand:
// installs npm dependencies when missing or stale, installs missing system packages with apt-get
// when it can (or prints the one command that would), and builds what is out of date.
// Plain Node, no dependencies: it runs before node_modules exists.
//
//   node scripts/ensure-ready.mjs [--system redis,chromium,strace,python-redis,ruby-redis] [--soft] [--build | --build-server] [--build-static] [--quiet]
//
// --build-static: also the static site, dist/static (scripts/build-static.mjs), when its sources changed.
//
// --soft: a package that cannot be installed is only reported; the program that needs it says what
// to do (npm start can still measure an existing Redis given by --redis-url or REDIS_URL).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const quiet = args.includes('--quiet');
const soft = args.includes('--soft');
const systemArg = args[args.indexOf('--system') + 1];
const wanted = args.includes('--system') && systemArg ? systemArg.split(',') : [];

/** What each system requirement is called on disk and in Debian. */
const SYSTEM_PACKAGES = {
  redis: { binary: 'redis-server', debian: 'redis-server', why: 'the private Redis that Pipescope measures' },
  chromium: { binary: 'chromium', debian: 'chromium', why: 'the end-to-end browser tests' },
  strace: { binary: 'strace', debian: 'strace', why: 'kernel-level syscall counts' },
  // Real clients the observing port's tests drive (and the page's "run a real client" buttons): Debian's
  // redis-py for /usr/bin/python3 and redis-rb for ruby. Libraries, not programs: checked by loading them.
  'python-redis': { check: ['/usr/bin/python3', '-c', 'import redis'], debian: 'python3-redis', why: "redis-py, observed through the observing port" },
  'ruby-redis': { check: ['ruby', '-e', 'require "redis"'], debian: 'ruby-redis', why: "redis-rb, observed through the observing port" },
};

const say = (text) => quiet || console.log(`[pipescope] ${text}`);

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { cwd: root, stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit', ...options });
  if (result.status !== 0) {
    console.error(`[pipescope] ${command} ${commandArgs.join(' ')} failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
}

/** Whether a library loads: its check command exits 0. */
function loads([command, ...commandArgs]) {
  return spawnSync(command, commandArgs, { stdio: 'ignore' }).status === 0;
}

function onPath(binary) {
  return spawnSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' }).status === 0;
}

function ensureNodeModules() {
  const installed = join(root, 'node_modules', '.package-lock.json');
  const lock = join(root, 'package-lock.json');
  if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) return;
  say('Installing npm dependencies (npm ci)…');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function ensureSystemPackages() {
  // With REDIS_URL, `npm start` measures that Redis and needs no local server.
  const needed = wanted.filter((name) => !(name === 'redis' && soft && process.env.REDIS_URL));
  const missing = needed.map((name) => {
    const entry = SYSTEM_PACKAGES[name];
    if (!entry) {
      console.error(`[pipescope] unknown system requirement "${name}"`);
      process.exit(2);
    }
    return entry;
  }).filter((entry) => !(entry.check ? loads(entry.check) : onPath(entry.binary)));
  if (missing.length === 0) return;
  const packages = missing.map((entry) => entry.debian);
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (onPath('apt-get') && (isRoot || sudo)) {
    say(`Installing ${packages.join(', ')} with apt-get (${missing.map((entry) => entry.why).join('; ')})…`);
    const [command, ...prefix] = sudo ? ['sudo', '-n', 'apt-get'] : ['apt-get'];
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    run(command, [...prefix, 'update', '-qq'], { env });
    run(command, [...prefix, 'install', '-y', '-qq', ...packages], { env });
    return;
  }
  const redisHint = packages.includes('redis-server') ? ' (or set REDIS_URL=redis://host:port to use an existing Redis)' : '';
  console.error(`[pipescope] Missing ${packages.join(', ')}. Install with: sudo apt-get install -y ${packages.join(' ')}${redisHint}`);
  if (!soft) process.exit(1);
}

/** Newest modification time of any file under these folders. */
function newest(paths) {
  let latest = 0;
  const visit = (path) => {
    if (!existsSync(path)) return;
    const stat = statSync(path);
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  paths.forEach((path) => visit(join(root, path)));
  return latest;
}

function buildIfStale(stamp, sources, command, commandArgs, label) {
  const stampFile = join(root, 'dist', stamp);
  if (existsSync(stampFile) && statSync(stampFile).mtimeMs >= newest(sources)) return;
  say(`Building ${label}…`);
  run(command, commandArgs);
  writeFileSync(stampFile, `${new Date().toISOString()}\n`);
}

ensureNodeModules();
ensureSystemPackages();
const shared = ['trace', 'package-lock.json', 'tsconfig.json'];
if (args.includes('--build')) {
  // The app and its embed page, then pipescope-player.js beside them (the second build keeps the first's files).
  const sources = ['web', 'public', 'vite.config.ts', 'vite.player.config.ts', ...shared];
  buildIfStale('.web-built', sources, 'sh', ['-c', 'npx vite build --logLevel warn && npx vite build -c vite.player.config.ts --logLevel warn'], 'the web app');
}
if (args.includes('--build-static')) {
  const sources = ['web', 'public', 'vite.config.ts', 'vite.player.config.ts', 'scripts/build-static.mjs', ...shared];
  buildIfStale('.static-built', sources, 'node', ['scripts/build-static.mjs', '--quiet'], 'the static site');
}
if (args.includes('--build') || args.includes('--build-server')) {
  buildIfStale('.server-built', ['server', 'tsconfig.server.json', ...shared], 'npx', ['tsc', '-p', 'tsconfig.server.json'], 'the server');
}
