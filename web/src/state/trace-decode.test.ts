// The decode worker's model is the page's model: decodeReply (what the worker runs) on every recorded
// fixture, carried through structured clone as postMessage carries it, equals parseDocument on the page,
// field for field and in key order; refusals come back as a kind and a message, never as a throw.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { encodeCompactTrace } from '../../../trace/format/compact-trace.ts';
import { parseDocument, tracesOf } from '../../../trace/format/sweep-io.ts';
import { serializeBundle, traceBundle } from '../../../trace/format/trace-bundle.ts';
import { parseTrace, serializeTrace } from '../../../trace/format/trace-io.ts';
import { decodeReply } from './trace-decode.ts';
import { comparisonOrder, loadTraceFiles } from './trace-files.ts';

function files(folder: string): string[] {
  return readdirSync(folder).flatMap((f) => (statSync(join(folder, f)).isDirectory() ? files(join(folder, f)) : [join(folder, f)]));
}

const FIXTURES = [...files('e2e/fixtures'), ...files('public/traces'), ...files('public/tour')]
  .filter((f) => /\.json(\.gz)?$/.test(f) && !/index\.json$/.test(f));

describe('the decode worker', () => {
  it('gives exactly the model the main thread gives, on every fixture trace and sweep', async () => {
    expect(FIXTURES.length).toBeGreaterThan(30);
    for (const file of FIXTURES) {
      const bytes = new Uint8Array(readFileSync(file));
      const reply = structuredClone(await decodeReply({ id: 7, body: bytes }));
      const mainThread = parseDocument((file.endsWith('.gz') ? gunzipSync(bytes) : Buffer.from(bytes)).toString('utf8'));
      expect(reply.ok, file).toBe(true);
      if (!reply.ok) continue;
      expect(reply.id).toBe(7);
      expect(reply.document, file).toEqual(mainThread);
      expect(JSON.stringify(reply.document), file).toBe(JSON.stringify(mainThread));
    }
  });

  it('answers a refused or invalid file with its kind and message', async () => {
    const deep = await decodeReply({ id: 1, body: '['.repeat(100) + ']'.repeat(100) });
    expect(deep).toEqual({ id: 1, ok: false, kind: 'refused', message: 'the file nests arrays and objects more than 64 deep; a trace nests under 10.' });
    const html = await decodeReply({ id: 2, body: new TextEncoder().encode('<!doctype html><title>secret</title>') });
    expect(html).toEqual({ id: 2, ok: false, kind: 'invalid', message: 'Not a Pipescope file: the file is not valid JSON.' });
  });

  it('opens a compare saved as one file, plain or compact and gzipped, as its runs in their order', async () => {
    const folder = 'e2e/fixtures/incr-10-repeats';
    // Interleaved as a request runs them (pipeline 0, sequential 0, …): not the order the page sorts loose files in.
    const runs = readdirSync(folder).sort((a, b) => a.replace(/.*-r/, '').localeCompare(b.replace(/.*-r/, '')) || a.localeCompare(b))
      .map((f) => parseTrace(readFileSync(join(folder, f), 'utf8')));
    expect(runs.length).toBeGreaterThanOrEqual(9);
    for (const body of [new TextEncoder().encode(serializeBundle(runs)), new Uint8Array(gzipSync(encodeCompactTrace(traceBundle(runs))))]) {
      const reply = structuredClone(await decodeReply({ id: 3, body }));
      expect(reply.ok).toBe(true);
      if (!reply.ok) continue;
      expect(reply.document.kind).toBe('traces');
      expect(tracesOf(reply.document).map(serializeTrace)).toEqual(runs.map(serializeTrace));
      // Open trace…: one file, every run, in the order it was saved (no worker in jsdom: the same decode on the page).
      const loaded = await loadTraceFiles([new File([body], 'compare.json')]);
      expect(loaded).toMatchObject({ errors: [], inOrder: true });
      expect(comparisonOrder(loaded).map((d) => d.run.id)).toEqual(runs.map((d) => d.run.id));
    }
  });
});
