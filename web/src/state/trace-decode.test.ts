// The decode worker's model is the page's model: decodeReply (what the worker runs) on every recorded
// fixture, carried through structured clone as postMessage carries it, equals parseDocument on the page,
// field for field and in key order; refusals come back as a kind and a message, never as a throw.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { parseDocument } from '../../../trace/format/sweep-io.ts';
import { decodeReply } from './trace-decode.ts';

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
});
