// Every real recording the repository holds, for tests that must hold on real data rather than on
// made-up traces: the golden screenshots' fixtures (e2e/fixtures/, every folder), the tour's recordings
// (public/tour/) and the static site's traces (public/traces/, gzipped, some in the compact form), each
// read through the same parser the page uses. Sweeps are left out (they are not sequence diagrams).
// For unit tests only (node:fs, node:zlib).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseDocument } from '../../../trace/format/sweep-io.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

// Not `new URL(…, import.meta.url)`: Vite would rewrite it into an asset URL.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const FOLDERS = ['e2e/fixtures', 'public/tour', 'public/traces'];

export interface RecordedTrace {
  /** Path from the repository's root. */
  file: string;
  doc: TraceDocument;
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : [path];
  });
}

function fileText(file: string): string {
  const bytes = readFileSync(join(ROOT, file));
  return (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** The recording at `file` (a path from the repository's root). */
export function recordedTrace(file: string): TraceDocument {
  const parsed = parseDocument(fileText(file));
  if (parsed.kind !== 'trace') throw new Error(`${file} is not a trace`);
  return parsed.doc;
}

/** Every recorded trace, in path order. */
export function recordedTraces(): RecordedTrace[] {
  return FOLDERS.flatMap(filesUnder)
    .filter((file) => /\.json(\.gz)?$/.test(file) && !/index\.json$/.test(file))
    .flatMap((file) => {
      const parsed = parseDocument(fileText(file));
      return parsed.kind === 'trace' ? [{ file, doc: parsed.doc }] : [];
    });
}

/** The static site's recording of 300 GETs in chunks of 30: the densest labels of the recordings. */
export const CHUNKS_TRACE = 'public/traces/get-300-chunked-memory.json.gz';
