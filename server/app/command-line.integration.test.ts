// The two programs as a user runs them (built JS, real processes): `npm start`'s server and the
// CLI recorder. Checks exit codes, messages, the trace file, and that no redis-server is left behind.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { COMPACT_FORMAT } from '../../trace/format/compact-trace.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { parseDocument, tracesOf } from '../../trace/format/sweep-io.ts';
import { projectRoot } from '../support/project-root.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';

const root = projectRoot();
const built = (name: string) => join(root, 'dist', 'node', 'server', 'app', `${name}.js`);
const run = promisify(execFile);

beforeAll(() => {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: root, encoding: 'utf8' });
  expect(build.stdout + build.stderr).not.toMatch(/error TS/);
}, 120_000);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('record-cli', () => {
  it('records a pipelined run into a valid trace file', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pipescope-record-')), 'trace.json');
    const { stdout } = await run('node', [built('record-cli'), '--mode', 'pipeline', '--command', 'SET', '--n', '200', '--value-bytes', '16', '--out', out]);
    expect(stdout).toContain('pipeline 200 × SET on private redis-server');
    const doc = parseTrace(readFileSync(out, 'utf8'));
    expect(doc.run).toMatchObject({ mode: 'pipeline', command: 'SET', n: 200, valueBytes: 16 });
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    expect(doc.counts.client.writes).toBe(1);
  });

  it('records N commands in pipelines of C with --chunk, memory sampled', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pipescope-record-')), 'trace.json');
    const { stdout } = await run('node', [built('record-cli'), '--mode', 'pipeline', '--chunk', '1000', '--engine', 'raw', '--command', 'PING', '--n', '10000', '--out', out]);
    expect(stdout).toContain('chunked 10000 × PING in pipelines of 1000 on private redis-server');
    expect(stdout).toMatch(/memory peaks: Redis run connection [\d.]+ (KiB|MiB) \(CLIENT LIST tot-mem\)/);
    const doc = parseTrace(readFileSync(out, 'utf8'));
    expect(doc.run).toMatchObject({ mode: 'chunked', chunk: 1000 });
    expect(doc.counts.client.writes).toBe(10);
    expect(doc.memory?.server.samples.length).toBeGreaterThan(0);
  });

  it('--out run.json.gz writes the served form: a recorded 100,000-command pipeline, compact and gzipped, that reads back as the same trace', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-record-'));
    const out = join(dir, 'run.json.gz');
    const { stdout } = await run('node', [built('record-cli'), '--mode', 'pipeline', '--command', 'PING', '--n', '100000', '--out', out]);
    expect(stdout).toMatch(/\(the served form: compact, gzipped, [\d,]+ B, [\d.]+ B\/command\)/);
    const bytes = readFileSync(out);
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]);
    const text = gunzipSync(bytes).toString('utf8');
    expect(JSON.parse(text)).toMatchObject({ format: COMPACT_FORMAT, version: 1 });
    const parsed = parseDocument(text);
    if (parsed.kind !== 'trace') throw new Error('expected a trace');
    expect(parsed.doc.commands).toHaveLength(100_000);
    // Converted back to plain JSON and compacted again by the CLI: the same document, byte for byte.
    const plain = join(dir, 'plain.json');
    writeFileSync(plain, serializeTrace(parsed.doc));
    const again = await run('node', [built('record-cli'), 'compact', plain]);
    expect(again.stdout).toContain(`compact: ${plain} (`);
    expect(again.stdout).toMatch(/gzip of compact \(served\)\s+[\d,]+ B\s+[\d.]+ B\/command {2}← written/);
    expect(readFileSync(join(dir, 'plain.json.gz')).equals(bytes)).toBe(true);
    const back = parseDocument(gunzipSync(readFileSync(join(dir, 'plain.json.gz'))).toString('utf8'));
    expect(serializeTrace(tracesOf(back)[0]!)).toBe(serializeTrace(parsed.doc));
  });

  it('compact: a damaged .gz or a sweep gets a clear message and exit code 1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-compact-'));
    writeFileSync(join(dir, 'cut.json.gz'), Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00]));
    const cut = spawnSync('node', [built('record-cli'), 'compact', join(dir, 'cut.json.gz'), join(dir, 'out.json.gz')], { encoding: 'utf8' });
    expect(cut.status).toBe(1);
    expect(cut.stderr).toContain('cut.json.gz starts like gzip but does not decompress: it is damaged or cut short');
    const sweepFile = join(root, 'e2e', 'fixtures', 'sweep-ping-1-64.json');
    const sweep = spawnSync('node', [built('record-cli'), 'compact', sweepFile, join(dir, 'sweep.json.gz')], { encoding: 'utf8' });
    expect(sweep.status).toBe(1);
    expect(sweep.stderr).toContain('is a depth sweep; only traces have a compact form');
  });

  it('sweep: writes the points as a sweep document and prints the table', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pipescope-sweep-')), 'sweep.json');
    const { stdout } = await run('node', [built('record-cli'), 'sweep', '--depths', '1,2,4,…,16', '--per-point', '512', '--repeats', '1', '--out', out]);
    expect(stdout).toContain('sweep: 512 × PING per point, 1 repeats, depths 1, 2, 4, 8, 16, ioredis engine, untraced');
    const parsed = parseDocument(readFileSync(out, 'utf8'));
    expect(parsed.kind).toBe('sweep');
    if (parsed.kind !== 'sweep') return;
    expect(parsed.doc.points.map((p) => p.depth)).toEqual([1, 2, 4, 8, 16]);
    for (const point of parsed.doc.points) expect(stdout).toMatch(new RegExp(`^\\s+${point.depth}\\s+[\\d,]+ \\[`, 'm'));
  });

  it('sweep: bad flags get a clear message and exit code 2', () => {
    const result = spawnSync('node', [built('record-cli'), 'sweep', '--depths', '8,4', '--out', 'x.json'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--depths: depths must be increasing, each once');
  });

  it.each([
    [['--mode', 'sideways', '--command', 'PING', '--n', '5', '--out', 'x.json'], '--mode must be one of sequential, pipeline, chunked, multi, eval, evalsha, multikey, auto, not "sideways"'],
    [['--mode', 'pipeline', '--command', 'FLUSHALL', '--n', '5', '--out', 'x.json'], '--command must be one of PING, INCR, SET, GET, GET-COMPUTE-SET, not "FLUSHALL"'],
    [['--mode', 'pipeline', '--command', 'PING', '--n', '0', '--out', 'x.json'], '--n: n must be at least 1'],
    [['--mode', 'pipeline', '--command', 'PING', '--n', '5'], '--out is required'],
    [['--mode', 'pipeline', '--command', 'PING', '--n', '5', '--out', 'x.json', '--turbo'], "Unknown option '--turbo'"],
  ])('bad flags %j: a clear message and exit code 2', async (args, message) => {
    const result = spawnSync('node', [built('record-cli'), ...args], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage: npm run record');
  });
});

describe('server (npm start)', () => {
  it('serves, then stops its private redis-server on SIGTERM and SIGINT', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const child = spawn('node', [built('main'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      let redisPid = 0;
      try {
        while (!output.includes('Press Ctrl+C')) await new Promise((resolve) => setTimeout(resolve, 50));
        const url = /running at (\S+)/.exec(output)![1]!;
        redisPid = Number(/\(pid (\d+)\)/.exec(output)![1]);
        expect(isAlive(redisPid)).toBe(true);
        const page = await fetch(url);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<title>Pipescope');
        expect((await fetch(new URL('/..%2f..%2f..%2fetc%2fpasswd', url))).status).toBe(404);
      } finally {
        child.kill(signal);
      }
      expect(await exited).toBe(signal === 'SIGTERM' ? 143 : 130);
      expect(isAlive(redisPid)).toBe(false);
    }
  });

  it('leaves no redis-server behind even when killed with SIGKILL', async () => {
    const child = spawn('node', [built('main'), '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      while (!output.includes('Press Ctrl+C')) await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    const redisPid = Number(/\(pid (\d+)\)/.exec(output)![1]);
    for (let i = 0; i < 100 && isAlive(redisPid); i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isAlive(redisPid)).toBe(false);
  });

  it('refuses bad flags with exit code 2', () => {
    const result = spawnSync('node', [built('main'), '--port', '99999'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be 0..65535');
  });

  it('says clearly when the given Redis is unreachable', () => {
    const result = spawnSync('node', [built('main'), '--port', '0', '--redis-url', 'redis://user:secret@127.0.0.1:1'], { encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Could not connect to redis://***@127.0.0.1:1');
    expect(result.stderr).not.toContain('secret');
  });
});

describe('a Redis with a password, from --redis-url-file', () => {
  const PASSWORD = 'cli:p@ss/w0rd';
  let redis: PrivateRedis;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    const admin = new Redis({ host: redis.host, port: redis.port });
    await admin.config('SET', 'requirepass', PASSWORD);
    admin.disconnect();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  const urlFile = (password: string) => {
    const file = join(mkdtempSync(join(tmpdir(), 'pipescope-url-')), 'redis-url');
    writeFileSync(file, `redis://:${encodeURIComponent(password)}@${redis.host}:${redis.port}\n`);
    return file;
  };

  it('records with the URL read from a file: no password on the command line or in the output', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pipescope-record-')), 'trace.json');
    const args = [built('record-cli'), '--mode', 'pipeline', '--command', 'INCR', '--n', '20', '--redis-url-file', urlFile(PASSWORD), '--out', out];
    expect(args.join(' ')).not.toContain('p@ss');
    const { stdout, stderr } = await run('node', args);
    expect(stdout).toContain(`pipeline 20 × INCR on Redis 7`);
    expect(`${stdout}${stderr}`).not.toMatch(/p@ss|p%40ss/);
  });

  it('a wrong password fails with a message that holds no part of it', () => {
    const result = spawnSync('node', [built('record-cli'), '--mode', 'pipeline', '--command', 'PING', '--n', '5', '--redis-url-file', urlFile('wr0ng:p@ss'), '--out', 'x.json'], { encoding: 'utf8', timeout: 30_000 });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`redis://***@${redis.host}:${redis.port}`);
    expect(result.stderr).not.toMatch(/wr0ng|p@ss|p%40ss/);
  });
});
