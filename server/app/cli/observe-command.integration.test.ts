// `npm run record -- observe` as a user runs it (the built CLI, a real process): it prints the address,
// records a real client (redis-cli) through it until --commands, writes one trace per connection and its
// verdict lines, and refuses bad flags with a message. Also `npm start -- --observe`'s flag, parsed.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../../../trace/format/trace-io.ts';
import { projectRoot } from '../../support/project-root.ts';
import { DEFAULT_OBSERVE_PORT, parseServeOptions } from './serve-options.ts';
import { observedFileNames, parseObserveOptions } from './observe-cli.ts';

const root = projectRoot();
const run = promisify(execFile);
const recordCli = join(root, 'dist', 'node', 'server', 'app', 'record-cli.js');

beforeAll(() => {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: root, encoding: 'utf8' });
  expect(build.stdout + build.stderr).not.toMatch(/error TS/);
}, 120_000);

describe('record observe', () => {
  it('records redis-cli through the printed address until --commands, one trace per connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-observe-cli-'));
    const out = join(dir, 'cli.json');
    const child = spawn(process.execPath, [recordCli, 'observe', '--listen', '0', '--commands', '3', '--no-hop', '--out', out], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await expect.poll(() => /point your client at redis:\/\/127\.0\.0\.1:(\d+)/.exec(output)?.[1], { timeout: 30_000 }).toBeTruthy();
    const port = /point your client at redis:\/\/127\.0\.0\.1:(\d+)/.exec(output)![1]!;
    await run('redis-cli', ['-p', port, 'SET', 'pipescope:observe:cli-test', 'v']);
    await run('redis-cli', ['-p', port, 'GET', 'pipescope:observe:cli-test']);
    await run('redis-cli', ['-p', port, 'DEL', 'pipescope:observe:cli-test']);
    expect(await exited).toBe(0);
    const files = observedFileNames(out, [1, 2, 3]);
    expect(files.every(existsSync)).toBe(true);
    const docs = files.map((f) => parseTrace(readFileSync(f, 'utf8')));
    expect(docs.map((d) => d.run.observed!.commands)).toEqual([['SET pipescope:observe:cli-test v'], ['GET pipescope:observe:cli-test'], ['DEL pipescope:observe:cli-test']]);
    expect(output).toContain('1 command in 1 chunk from the client');
    expect(output).toContain('no MULTI/EXEC');
  });

  it('refuses bad flags with a message and exit 2', async () => {
    const failed = await run(process.execPath, [recordCli, 'observe', '--out', 'x.json', '--commands', '5', '--seconds', '3']).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toContain('give --commands or --seconds, not both');
    expect(() => parseObserveOptions(['--listen', '70000', '--out', 'x'], {})).toThrow('--listen must be a whole number from 0 to 65,535');
    expect(() => parseObserveOptions([], {})).toThrow('--out FILE is required');
  });

  it('names the files of several connections after FILE', () => {
    expect(observedFileNames('/t/app.json', [1])).toEqual(['/t/app.json']);
    expect(observedFileNames('/t/app.json.gz', [1, 2])).toEqual(['/t/app.c1.json.gz', '/t/app.c2.json.gz']);
    expect(observedFileNames('/t/app', [3, 4])).toEqual(['/t/app.c3.json', '/t/app.c4.json']);
  });
});

describe('npm start -- --observe', () => {
  it('a bare --observe opens the default port at start; a port after it is taken; the page may open it without', () => {
    expect(parseServeOptions(['--observe'], {})).toMatchObject({ observe: { port: DEFAULT_OBSERVE_PORT, openAtStart: true } });
    expect(parseServeOptions(['--observe', '7001', '--port', '0'], {})).toMatchObject({ port: 0, observe: { port: 7001, openAtStart: true } });
    expect(parseServeOptions(['--port', '0'], {})).not.toHaveProperty('observe');
    expect(() => parseServeOptions(['--observe=x'], {})).toThrow('--observe takes a port');
    expect(() => parseServeOptions(['--observe-allow-remote'], {})).toThrow('give --observe-host too');
  });
});
