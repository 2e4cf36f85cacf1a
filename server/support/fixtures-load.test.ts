// Every committed trace fixture (recorded by older versions) still opens as the current version, a
// whole run, and round-trips: the guard for a format change (v4 added `incomplete`).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMAT_VERSION } from '../../trace/format/trace-format.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures');

function traceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return traceFiles(path);
    return path.endsWith('.json') && readFileSync(path, 'utf8').includes('"pipescope-trace"') ? [path] : [];
  });
}

describe('the e2e fixtures', () => {
  const files = traceFiles(FIXTURES);

  it('are there', () => expect(files.length).toBeGreaterThan(10));

  it.each(files.map((f) => [f.slice(FIXTURES.length + 1), f]))('%s opens as the current version and round-trips', (_name, path) => {
    const doc = parseTrace(readFileSync(path, 'utf8'));
    expect(doc.version).toBe(FORMAT_VERSION);
    expect(doc.incomplete).toBeNull();
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });
});
