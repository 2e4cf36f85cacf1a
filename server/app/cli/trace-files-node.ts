// Trace files on disk for the CLI and the bench: a name ending in .gz is the form served to the web —
// the compact encoding (trace/format/compact-trace.ts) gzipped at level 9 — anything else plain JSON, as before.
// Reading accepts every form (plain, compact, either gzipped), through the same parseDocument as the app,
// with the same budget (trace/format/decode-budget.ts): the gunzip stops at the inflated-bytes limit for
// the file's size, and a byte-order mark is read past, as the page does.
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { encodeCompactTrace } from '../../../trace/format/compact-trace.ts';
import { decodeBudget, DecodeLimitError, inflateRefusal } from '../../../trace/format/decode-budget.ts';
import { parseDocument, type PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import { TraceError } from '../../../trace/format/trace-builder.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';

export const GZIP_LEVEL = 9;

/** Bytes of each form of one trace: plain JSON, its gzip, the compact encoding, its gzip (the served form). */
export interface FormSizes {
  plain: number;
  plainGzip: number;
  compact: number;
  compactGzip: number;
}

/** The bytes of each form of one trace, each encoded once. */
export function traceForms(doc: TraceDocument): Record<keyof FormSizes, Buffer> {
  const plain = Buffer.from(serializeTrace(doc), 'utf8');
  const compact = Buffer.from(encodeCompactTrace(doc), 'utf8');
  return { plain, plainGzip: gzipSync(plain, { level: GZIP_LEVEL }), compact, compactGzip: gzipSync(compact, { level: GZIP_LEVEL }) };
}

export function formSizes(doc: TraceDocument): FormSizes {
  return sizesOf(traceForms(doc));
}

export function sizesOf(forms: Record<keyof FormSizes, Buffer>): FormSizes {
  return { plain: forms.plain.length, plainGzip: forms.plainGzip.length, compact: forms.compact.length, compactGzip: forms.compactGzip.length };
}

export const FORM_LABELS: Record<keyof FormSizes, string> = {
  plain: 'plain JSON',
  plainGzip: 'gzip of plain JSON',
  compact: 'compact',
  compactGzip: 'gzip of compact (served)',
};

/** The four sizes, one line each, with bytes per command of the run's n. */
export function formSizesText(sizes: FormSizes, n: number, written?: keyof FormSizes): string {
  return (Object.keys(FORM_LABELS) as (keyof FormSizes)[]).map((form) =>
    `  ${FORM_LABELS[form].padEnd(26)} ${sizes[form].toLocaleString('en-US').padStart(12)} B  ${(sizes[form] / n).toFixed(2).padStart(8)} B/command` +
    (form === written ? '  ← written' : '')).join('\n');
}

export function gzip(text: string): Buffer {
  return gzipSync(text, { level: GZIP_LEVEL });
}

export const isServedName = (path: string) => path.endsWith('.gz');

/** Writes the trace as its name says (…gz: compact, gzipped; else plain JSON); returns the bytes written. */
export function writeTraceFile(path: string, doc: TraceDocument): number {
  const bytes = isServedName(path) ? gzip(encodeCompactTrace(doc)) : Buffer.from(serializeTrace(doc), 'utf8');
  writeFileSync(path, bytes);
  return bytes.length;
}

/**
 * A trace or sweep file in any form (gzipped or not, plain or compact), verified; throws TraceError with the
 * file's name, DecodeLimitError when the file is refused for what it would cost to read.
 */
export function readDocumentFile(path: string): { document: PipescopeDocument; bytes: number } {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new TraceError(`cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message}`);
  }
  const budget = decodeBudget(bytes.length);
  let text: string;
  try {
    text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes, { maxOutputLength: budget.inflatedBytes }) : bytes).toString('utf8');
  } catch (error) {
    // zlib stops writing at maxOutputLength (ERR_BUFFER_TOO_LARGE): the output never grows past the limit.
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new DecodeLimitError(`${path}: ${inflateRefusal(budget.inflatedBytes, bytes.length).message}`);
    throw new TraceError(`${path} starts like gzip but does not decompress: it is damaged or cut short (${(error as Error).message}).`);
  }
  try {
    return { document: parseDocument(text, budget), bytes: bytes.length };
  } catch (error) {
    if (error instanceof DecodeLimitError) throw new DecodeLimitError(`${path}: ${error.message}`);
    throw new TraceError(`${path}: ${(error as Error).message}`);
  }
}
