// `npm run record -- export` as a user runs it (the built CLI, a real process, no Redis): the recorded
// fixtures come out as the same text as the exporters' goldens (trace/export/__goldens__/), to stdout or --out;
// bad flags and bad files get one clear message and a non-zero exit, never a stack trace.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
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
});
