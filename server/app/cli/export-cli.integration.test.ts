// `npm run record -- export` as a user runs it (the built CLI, a real process, no Redis): the recorded
// fixtures come out as the same text as the exporters' goldens (trace/export/__goldens__/), to stdout or --out;
// bad flags and bad files get one clear message and a non-zero exit, never a stack trace.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeHostileCorpus } from '../../support/hostile-corpus.ts';
import { projectRoot } from '../../support/project-root.ts';

const root = projectRoot();
const cli = join(root, 'dist', 'node', 'server', 'app', 'record-cli.js');
const fixture = (name: string) => join(root, 'e2e', 'fixtures', name);
const golden = (name: string) => readFileSync(join(root, 'trace', 'export', '__goldens__', name), 'utf8');
const run = promisify(execFile);

/** Exit code, stdout and stderr of the CLI with these arguments. */
function exportWith(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('node', [cli, 'export', ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: root, encoding: 'utf8' });
  expect(build.stdout + build.stderr).not.toMatch(/error TS/);
}, 120_000);

describe('record export', () => {
  it('prints a run as Mermaid and as a text flow, as in their goldens', async () => {
    const mermaid = await run('node', [cli, 'export', fixture('incr-10-pipeline.json'), '--format', 'mermaid']);
    expect(mermaid.stdout).toBe(golden('incr-10-pipeline.mmd'));
    expect(mermaid.stderr).toBe('');
    const flow = await run('node', [cli, 'export', fixture('incr-10-sequential.json'), '--format', 'flow']);
    expect(flow.stdout).toBe(golden('incr-10-sequential.flow.txt'));
  });

  it('prints each run of a compare saved as one file, in its order, under a line naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-export-'));
    const runs = ['incr-10-pipeline.json', 'incr-10-sequential.json'].map((name) => JSON.parse(readFileSync(fixture(name), 'utf8')));
    const bundle = join(dir, 'compare.json');
    writeFileSync(bundle, JSON.stringify({ format: 'pipescope-traces', version: 1, traces: runs }));
    const flow = await run('node', [cli, 'export', bundle, '--format', 'flow']);
    const lines = flow.stdout.split('\n');
    expect(lines[0]).toBe(`# run 1 of 2: pipeline 10 × INCR, repeat 1 (${runs[0].run.id})`);
    expect(flow.stdout).toBe(`${lines[0]}\n${golden('incr-10-pipeline.flow.txt')}\n# run 2 of 2: sequential 10 × INCR, repeat 1 (${runs[1].run.id})\n${golden('incr-10-sequential.flow.txt')}`);
    // Its compact form, gzipped (npm run record -- compact), reads back as the same text.
    const served = join(dir, 'compare.json.gz');
    await run('node', [cli, 'compact', bundle, served]);
    expect((await run('node', [cli, 'export', served, '--format', 'flow'])).stdout).toBe(flow.stdout);
  });

  it('writes a sweep as redis-benchmark CSV to --out', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pipescope-export-')), 'sweep.csv');
    const { stdout, stderr } = await run('node', [cli, 'export', fixture('sweep-ping-1-64.json'), '--format', 'csv', '--out', out]);
    expect(stdout).toBe('');
    expect(stderr).toBe(`csv written to ${out}\n`);
    expect(readFileSync(out, 'utf8')).toBe(golden('sweep-ping-1-64.csv'));
  });

  it('refuses bad flags with the usage (exit 2) and bad files with what is wrong (exit 1)', () => {
    const noFormat = exportWith([fixture('incr-10-pipeline.json')]);
    expect(noFormat.status).toBe(2);
    expect(noFormat.stderr).toMatch(/^record export: --format is required: mermaid, flow, csv\nUsage: npm run record -- export FILE/);
    expect(exportWith([fixture('incr-10-pipeline.json'), '--format', 'svg']).stderr).toMatch(/^record export: --format must be one of mermaid, flow, csv, not "svg"/);
    expect(exportWith(['--format', 'flow']).stderr).toMatch(/^record export: name the trace or sweep file to export/);
    expect(exportWith([fixture('incr-10-pipeline.json'), '--format', 'flow', '--colour']).status).toBe(2);
    const sweepAsMermaid = exportWith([fixture('sweep-ping-1-64.json'), '--format', 'mermaid']);
    expect(sweepAsMermaid.status).toBe(2);
    expect(sweepAsMermaid.stderr).toMatch(/^record export: --format mermaid draws one run; this file is a depth sweep: use --format csv/);
    expect(exportWith([fixture('incr-10-pipeline.json'), '--format', 'csv']).stderr).toMatch(/--format csv is for depth sweeps/);

    const missing = exportWith([join(tmpdir(), 'no-such-pipescope-trace.json'), '--format', 'flow']);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/^record export: cannot read .*no-such-pipescope-trace\.json: no such file\n$/);
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-export-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"pipescope-trace","version":4}');
    const invalid = exportWith([bad, '--format', 'mermaid']);
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/^record export: .*bad\.json: Invalid trace/);
    expect(invalid.stderr).not.toMatch(/\n\s+at /); // no stack trace
    writeFileSync(bad, 'not json');
    expect(exportWith([bad, '--format', 'mermaid']).stderr).toMatch(/Not a Pipescope file: the file is not valid JSON/);
  });

  it('reads a file that starts with a byte-order mark, as the page does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pipescope-export-'));
    const withBom = join(dir, 'bom.json');
    writeFileSync(withBom, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(fixture('incr-10-pipeline.json'))]));
    const result = exportWith([withBom, '--format', 'mermaid']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(golden('incr-10-pipeline.mmd'));
  });
});

describe('record export and compact of hostile files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pipescope-hostile-'));
  const corpus = writeHostileCorpus(dir);
  const expected: Record<string, RegExp> = {
    'table-8m-rows.json.gz': /Refused compact trace: trace\.commands declares 8,000,000 records, more than the [\d,]+ left of the limit for a file this size/,
    'array-400mb.json.gz': /the file inflates to more than 27\.8 MiB \(the limit for 378\.5 KiB of gzip: 16 MiB \+ 32 × its size, at most 384 MiB\)/,
    'bomb-8gib.json.gz': /the file inflates to more than 270\.0 MiB/,
    'deep-nesting.json': /the file nests arrays and objects more than 64 deep/,
    'long-string.json': /the file holds a string longer than 1,048,576 characters/,
  };

  /** Seconds Node takes to start and load the CLI's modules on this machine now (--help reads no file). */
  const startUp = () => {
    const started = performance.now();
    spawnSync('node', [cli, 'export', '--help'], { cwd: root });
    return (performance.now() - started) / 1000;
  };

  for (const file of corpus) {
    it(`refuses ${file.what} with one line and exit 2, never a V8 fatal`, () => {
      for (const args of [['export', join(dir, file.name), '--format', 'mermaid'], ['export', join(dir, file.name), '--format', 'flow'], ['compact', join(dir, file.name), join(dir, 'out.json.gz')]]) {
        // A Node heap of 512 MB: a reader that builds what the file declares would die here, loudly.
        const attempt = () => {
          const baseline = startUp();
          const started = performance.now();
          const result = spawnSync('node', ['--max-old-space-size=512', cli, ...args], { cwd: root, encoding: 'utf8' });
          return { result, seconds: (performance.now() - started) / 1000 - baseline };
        };
        // Node's own start-up takes 1–2 s on a busy machine; the refusal itself is within 2 s of it. This
        // machine's speed moves several-fold, so the best of up to three tries counts (before bounded
        // decoding these files took 20–96 s, or killed Node).
        let { result, seconds } = attempt();
        for (let tries = 1; seconds >= 2 && tries < 3; tries++) ({ result, seconds } = attempt());
        expect(result.status, result.stderr).toBe(2);
        expect(result.stderr).toMatch(expected[file.name]!);
        expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
        expect(result.stdout).toBe('');
        expect(seconds).toBeLessThan(2);
      }
    });
  }
});
