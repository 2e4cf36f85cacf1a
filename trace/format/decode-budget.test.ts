// The decoding budget: refusals name their limit and come before anything big is built; every recorded
// trace in the repository (the largest compact one declares 500,703 values from 4,049 characters) fits.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { thrownMessage } from '../test-support/thrown-message.ts';
import { checkJsonText, decodeBudget, DecodeLimitError, INFLATED_FLOOR_BYTES, MAX_INFLATED_BYTES, sizeText, tableBudget, withoutBom } from './decode-budget.ts';
import { parseDocument } from './sweep-io.ts';

const budget = decodeBudget(1000);

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((f) => (statSync(join(folder, f)).isDirectory() ? files(join(folder, f)) : [join(folder, f)]));
}

describe('decode budget', () => {
  it('derives the inflated-bytes limit from the input size, within a ceiling', () => {
    expect(decodeBudget(0).inflatedBytes).toBe(INFLATED_FLOOR_BYTES);
    expect(decodeBudget(1024 * 1024).inflatedBytes).toBe(INFLATED_FLOOR_BYTES + 32 * 1024 * 1024);
    expect(decodeBudget(12 * 1024 * 1024).inflatedBytes).toBe(MAX_INFLATED_BYTES);
    // A plain sequential trace of 1,000,000 commands traced with MONITOR: ~32.5 MB gzipped, ~320 MB of text.
    expect(decodeBudget(32.5e6).inflatedBytes).toBeGreaterThan(320e6);
    expect(tableBudget(212)).toEqual({ rows: 1_217_088, cells: 1_217_088 });
    expect(tableBudget(1e9)).toEqual({ rows: 8_000_000, cells: 32_000_000 });
    expect(sizeText(384 * 1024 * 1024)).toBe('384 MiB');
  });

  it('refuses deep nesting, too many values and long strings before JSON.parse, naming the limit', () => {
    expect(thrownMessage(() => checkJsonText(`${'['.repeat(65)}${']'.repeat(65)}`, budget), DecodeLimitError))
      .toBe('the file nests arrays and objects more than 64 deep; a trace nests under 10.');
    expect(() => checkJsonText(`${'['.repeat(64)}${']'.repeat(64)}`, budget)).not.toThrow();
    expect(thrownMessage(() => checkJsonText('[1,2,3,4]', { ...budget, values: 3 }), DecodeLimitError))
      .toBe('the file holds more than 3 JSON values; that is not a trace Pipescope can show.');
    expect(thrownMessage(() => checkJsonText(JSON.stringify({ a: 'x'.repeat(11) }), { ...budget, stringChars: 10 }), DecodeLimitError))
      .toBe('the file holds a string longer than 10 characters; no trace field is that long.');
    // Brackets, commas and escaped quotes inside a string are not structure.
    expect(() => checkJsonText(JSON.stringify({ a: '[[[[,,,,\\"[[[' }), { ...budget, depth: 1, values: 1 })).not.toThrow();
  });

  it('refuses a compact table from its declared counts, however few bytes declare it', () => {
    const text = JSON.stringify({
      format: 'pipescope-trace-columns', version: 1,
      trace: { commands: { $table: 8_000_000, keys: ['a', 'b'], shapes: [[0, 1]], columns: [{ ints: { values: [[7, 8_000_000]] } }, { same: 0 }] } },
    });
    const started = performance.now();
    expect(thrownMessage(() => parseDocument(text), DecodeLimitError)).toMatch(/^Refused compact trace: trace\.commands declares 8,000,000 records, more than the 1,\d{3},\d{3} left of the limit/);
    expect(performance.now() - started).toBeLessThan(1000); // a loop over 8,000,000 rows would take longer; the check takes microseconds
  });

  it('reads past a byte-order mark, as a browser does', () => {
    expect(withoutBom('\uFEFF{}')).toBe('{}');
    const text = readFileSync('e2e/fixtures/incr-10-pipeline.json', 'utf8');
    expect(parseDocument(`\uFEFF${text}`)).toEqual(parseDocument(text));
  });

  it('holds every recorded trace and sweep in the repository well inside the budget', () => {
    const all = [...files('e2e/fixtures'), ...files('public/traces'), ...files('public/tour')].filter((f) => /\.json(\.gz)?$/.test(f) && !/index\.json$/.test(f));
    expect(all.length).toBeGreaterThan(30);
    for (const file of all) {
      const raw = readFileSync(file);
      const text = (file.endsWith('.gz') ? gunzipSync(raw, { maxOutputLength: decodeBudget(raw.length).inflatedBytes }) : raw).toString('utf8');
      expect(() => parseDocument(text, decodeBudget(raw.length)), file).not.toThrow();
    }
  });
});
