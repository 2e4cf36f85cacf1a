// The recorder carries cluster runs, as users run it (the built CLI, real processes): `npm run record --
// --cluster` records the raw engine's pipeline split over a private 3-master cluster it starts and stops
// (its own TMPDIR: no node folder left); `export --format mermaid` draws it with a participant per node;
// `compact` to the served form and back, the trace reads back unchanged and exports the same text.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseDocument } from '../../../trace/format/sweep-io.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { mermaidSequence } from '../../../trace/export/mermaid-export.ts';
import { projectRoot } from '../../support/project-root.ts';

const root = projectRoot();
const cli = join(root, 'dist', 'node', 'server', 'app', 'record-cli.js');
let dir: string;
let tmp: string;

beforeAll(() => {
  const build = spawnSync('npx', ['tsc', '-p', 'tsconfig.server.json'], { cwd: root, encoding: 'utf8' });
  expect(build.stdout + build.stderr).not.toMatch(/error TS/);
  dir = mkdtempSync(join(tmpdir(), 'pipescope-cluster-record-'));
  tmp = mkdtempSync(join(tmpdir(), 'pipescope-cluster-record-tmp-'));
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
});

function cliRun(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync('node', [cli, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, TMPDIR: tmp }, timeout: 90_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function traceIn(file: string): TraceDocument {
  const bytes = readFileSync(file);
  const parsed = parseDocument((file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8'));
  if (parsed.kind !== 'trace') throw new Error(`${file} is not a trace`);
  return parsed.doc;
}

it('records a cluster run, exports it per node, and compacts it there and back unchanged', () => {
  const out = join(dir, 'set-30.json');
  const recorded = cliRun(['--cluster', '--engine', 'raw', '--mode', 'pipeline', '--command', 'SET', '--n', '30', '--value-bytes', '8', '--out', out]);
  expect(recorded.status, recorded.stderr).toBe(0);
  expect(readdirSync(tmp)).toEqual([]); // the cluster's nodes and folders went with the recorder
  const doc = traceIn(out);
  const masters = doc.cluster!.topology.nodes.filter((node) => node.role === 'master');
  expect(masters).toHaveLength(3);
  expect(new Set(doc.commands.map((c) => c.node))).toEqual(new Set(masters.map((m) => m.id)));

  const mermaid = cliRun(['export', out, '--format', 'mermaid']);
  expect(mermaid.status, mermaid.stderr).toBe(0);
  expect(mermaid.stdout).toBe(mermaidSequence(doc));
  expect(mermaid.stdout.split('\n').filter((line) => line.startsWith('    participant N'))).toHaveLength(3);
  expect(mermaid.stdout).toMatch(/ {4}C->>N\d: write 1 · /);

  const served = join(dir, 'set-30.json.gz');
  const back = join(dir, 'set-30-back.json');
  expect(cliRun(['compact', out, served]).status).toBe(0);
  expect(cliRun(['compact', served, back]).status).toBe(0);
  expect(serializeTrace(traceIn(served))).toBe(serializeTrace(doc));
  expect(serializeTrace(traceIn(back))).toBe(serializeTrace(doc));
  expect(cliRun(['export', served, '--format', 'mermaid']).stdout).toBe(mermaid.stdout);
}, 120_000);
