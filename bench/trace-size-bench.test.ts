import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { parseDocument, tracesOf } from '../trace/format/sweep-io.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';
import { formatFindings } from './bench-report.ts';
import { traceSizeBench } from './trace-size-bench.ts';

it('prints bytes per command of each form of a recorded 100k pipeline, the served one judged against ≤ 10 B', () => {
  const file = join(import.meta.dirname, '..', 'e2e', 'fixtures', 'compact', 'ping-100000-pipeline.json.gz');
  const doc = tracesOf(parseDocument(gunzipSync(readFileSync(file)).toString('utf8')))[0] as TraceDocument;
  const lines: string[] = [];
  const findings = traceSizeBench(doc, (line) => lines.push(line));
  expect(findings.map((f) => f.name)).toEqual([
    'trace file, pipeline PING, plain JSON, bytes per command',
    'trace file, pipeline PING, gzip of plain JSON, bytes per command',
    'trace file, pipeline PING, compact, bytes per command',
    'trace file, pipeline PING, gzip of compact (served), bytes per command',
  ]);
  expect(findings.map((f) => f.goal)).toEqual([null, null, null, { bound: 'at most', value: 10 }]);
  // Sizes do not depend on the machine: this recording is 6,597,913 B as plain JSON.
  expect(findings[0]!.spread.median).toBeCloseTo(65.97913, 5);
  expect(findings[3]!.how).toMatch(/^[\d,]+ B ÷ 100,000 commands, recorded pipeline of 100,000 × PING \(memory sampled\), node:zlib gzip level 9$/);
  expect(lines[0]).toMatch(/^ {2}recorded pipeline of 100,000 × PING: plain JSON 6443\.3 KiB, gzip of plain JSON [\d.]+ KiB, compact [\d.]+ KiB, gzip of compact \(served\) [\d.]+ KiB$/);
  expect(formatFindings(findings)).toMatch(/trace file, pipeline PING, gzip of compact \(served\), bytes per command +0\.0\d\d B +≤ 10\.0 B +met/);
});
