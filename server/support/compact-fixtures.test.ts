// Compact traces (trace/format/compact-trace.ts) of real recordings: every e2e fixture and a recorded
// 100,000-command pipeline round-trip byte for byte through the reader every part uses (parseDocument),
// and a damaged compact file is refused with a clear TraceError.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPACT_FORMAT, decodeCompactTrace, encodeCompactTrace } from '../../trace/format/compact-trace.ts';
import { DecodeLimitError } from '../../trace/format/decode-budget.ts';
import { parseDocument } from '../../trace/format/sweep-io.ts';
import { TraceError } from '../../trace/format/trace-builder.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { thrownMessage } from '../../trace/test-support/thrown-message.ts';

const FIXTURES = join(import.meta.dirname, '..', '..', 'e2e', 'fixtures');

/** Every recorded trace under e2e/fixtures (sweeps left out). */
function fixtureTraces(dir = FIXTURES): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return fixtureTraces(path);
    return entry.name.endsWith('.json') && !entry.name.startsWith('sweep-') ? [path] : [];
  });
}

const traceOf = (text: string): TraceDocument => {
  const parsed = parseDocument(text);
  if (parsed.kind !== 'trace') throw new Error('expected a trace');
  return parsed.doc;
};

/** The invariant: the compact text, read back the way every reader reads it, serializes to the same bytes. */
function expectRoundTrip(doc: TraceDocument): string {
  const compact = encodeCompactTrace(doc);
  expect(JSON.stringify(decodeCompactTrace(JSON.parse(compact)))).toBe(serializeTrace(doc));
  expect(serializeTrace(traceOf(compact))).toBe(serializeTrace(doc));
  return compact;
}

describe('compact traces', () => {
  const fixtures = fixtureTraces();

  it('finds the fixtures', () => expect(fixtures.length).toBeGreaterThanOrEqual(20));

  it.each(fixtures.map((f) => [relative(FIXTURES, f), f]))('round-trips %s byte for byte', (_name, file) => {
    const doc = parseTrace(readFileSync(file, 'utf8'));
    const compact = expectRoundTrip(doc);
    expect(JSON.parse(compact)).toMatchObject({ format: COMPACT_FORMAT, version: 1 });
  });

  it('round-trips a recorded 100,000-command pipeline, and encodes it to the same text again', () => {
    const text = gunzipSync(readFileSync(join(FIXTURES, 'compact', 'ping-100000-pipeline.json.gz'))).toString('utf8');
    const doc = traceOf(text);
    expect(doc.run).toMatchObject({ mode: 'pipeline', command: 'PING', n: 100_000 });
    expect(doc.commands).toHaveLength(100_000);
    expect(expectRoundTrip(doc)).toBe(text);
    expect(text.length).toBeLessThan(10_000); // vs 6.6 MB as plain JSON
  });


  describe('a damaged compact file gives a clear TraceError', () => {
    const doc = parseTrace(readFileSync(join(FIXTURES, 'ping-20-pipeline-rtt-10ms.json'), 'utf8'));
    const compact = () => JSON.parse(encodeCompactTrace(doc)) as { version: number; trace: Record<string, Record<string, unknown>> };
    const message = (json: unknown) => thrownMessage(() => parseDocument(JSON.stringify(json)), TraceError);
    const commands = (c: ReturnType<typeof compact>) => c.trace['commands'] as { $table: number; columns: Record<string, unknown>[] };

    it('an unknown version', () => {
      expect(message({ ...compact(), version: 2 })).toBe('Unsupported compact trace version 2; this Pipescope reads version 1.');
    });
    it('a column that holds too few values', () => {
      const c = compact();
      commands(c).$table = 21;
      expect(message(c)).toBe('Damaged compact trace: trace.commands.index does not hold 21 integers.');
    });
    it('a pick outside its dictionary', () => {
      const c = compact();
      const picked = commands(c).columns.find((col) => 'dict' in col)!;
      picked['dict'] = [];
      expect(message(c)).toMatch(/^Damaged compact trace: trace\.commands\.\w+ picks a value its dictionary does not have\.$/);
    });
    it('a column of an unknown kind, and a table of no sensible length', () => {
      const c = compact();
      commands(c).columns[0] = { zigzag: [1] };
      expect(message(c)).toBe('Damaged compact trace: trace.commands.index is a column of an unknown kind.');
      commands(c).$table = -1;
      expect(message(c)).toBe('Damaged compact trace: trace.commands has a table of no sensible length.');
    });
    it('a table that claims more records, or values, than a file its size may hold, refused from the claim', () => {
      const c = compact();
      const table = (rows: number, keys = 1) => ({ $table: rows, keys: Array.from({ length: keys }, (_, k) => `k${k}`), shapes: [Array.from({ length: keys }, (_, k) => k)], columns: Array.from({ length: keys }, () => ({ plain: [] })) });
      const refused = (json: unknown) => thrownMessage(() => parseDocument(JSON.stringify(json)), DecodeLimitError);
      c.trace['neighbor'] = { many: table(8_000_001) } as never;
      expect(refused(c)).toMatch(/^Refused compact trace: trace\.neighbor\.many declares 8,000,001 records, more than the [\d,]+ left of the limit for a file this size/);
      c.trace['neighbor'] = { wide: table(100_000, 1000) } as never;
      expect(refused(c)).toMatch(/^Refused compact trace: trace\.neighbor\.wide declares 100,000,000 values, more than the [\d,]+ left of the limit for a file this size/);
    });
    it('decoded data that breaks the trace rules is refused like any trace file', () => {
      const c = compact();
      commands(c).columns[1] = { ints: { values: [[1, 20]] } }; // every sentUs moved
      expect(message(c)).toBe("Invalid trace: command 0's times do not match the writes and reads that carried it.");
    });
  });
});
