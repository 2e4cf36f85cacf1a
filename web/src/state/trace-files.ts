// Getting traces and sweeps in and out of the browser: `?trace=<url>` (repeatable, for replays and
// embeds), files picked by the user, and downloads. All text goes through parseDocument, so a file is
// held to the same rules as a live run and its TraceError message is what the user sees; a sweep file
// is told from a trace by its format. Links and files are read as bytes, gunzipped when they are gzip
// (base/gzip-text.ts: `run.json.gz`, the compact form served to the web, trace/format/compact-trace.ts),
// decoded and verified in the decode worker (trace-decoder.ts) within the budget for their size
// (trace/format/decode-budget.ts). Each failure has two sentences: the full one the page shows, and a
// public one, the URL and nothing read from the response, for a page that frames the embed.
import { fetchBytes, responseBytes } from '../base/fetch-body.ts';
import type { FileBody } from '../base/gzip-text.ts';
import { serializeSweep, tracesOf, type PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import { serializeBundle } from '../../../trace/format/trace-bundle.ts';
import type { SweepDocument } from '../../../trace/format/sweep-format.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { decodeDocument } from './trace-decoder.ts';


export interface LoadResult {
  docs: TraceDocument[];
  /** Where each of docs came from (same index): the file's name or the link's URL. */
  origins: string[];
  /** Depth-sweep files among them (shown in the sweep view). */
  sweeps: SweepDocument[];
  errors: string[];
  /** The same failures with nothing read from the response (no status, no content): what a host page may be told. */
  publicErrors: string[];
  /**
   * The traces are in the order they were shown, to be kept (comparisonOrder): they all came from one bundle
   * (a compare saved as one file: trace/format/trace-bundle.ts), or from links that name runs in their order.
   */
  inOrder?: boolean;
  /** Runs the backend keeps for links (run id → stored id), when they came from a link that names them (stored-runs.ts). */
  storedIds?: ReadonlyMap<string, string>;
}

type Loaded = { doc: PipescopeDocument; origin: string } | { error: string; publicError: string };

export function traceUrlsFromSearch(search: string): string[] {
  try {
    return new URLSearchParams(search)
      .getAll('trace')
      .map((u) => u.trim())
      .filter((u) => u.length > 0)
      .slice(0, MAX_TRACE_FILES);
  } catch {
    return [];
  }
}

/** Reads each URL (fetchBody: the bytes or text at a URL; default: the prefetched download, else fetch). */
export async function loadTraceUrls(urls: string[], fetchBody: (url: string) => Promise<FileBody> = fetchBodyOrThrow): Promise<LoadResult> {
  const results = await Promise.all(
    urls.map(async (url): Promise<Loaded> => {
      try {
        const body = await fetchBody(url);
        // User Timing marks (DevTools' timeline, npm run bench): where a big trace's load time goes.
        performance.mark('pipescope:trace-received', { detail: url });
        const doc = await decodeDocument(body);
        performance.mark('pipescope:trace-verified', { detail: url });
        return { doc, origin: url };
      } catch (error) {
        return { error: `Could not load the trace at ${url}: ${(error as Error).message}`, publicError: `Could not load the trace at ${url}.` };
      }
    }),
  );
  return collect(results);
}

export async function loadTraceFiles(files: ArrayLike<File>): Promise<LoadResult> {
  const results = await Promise.all(
    Array.from(files)
      .slice(0, MAX_TRACE_FILES)
      .map(async (file) => {
        try {
          const bytes = await file.arrayBuffer();
          performance.mark('pipescope:trace-received', { detail: file.name });
          const doc = await decodeDocument(bytes);
          performance.mark('pipescope:trace-verified', { detail: file.name });
          return { doc, origin: file.name };
        } catch (error) {
          return { error: `${file.name}: ${(error as Error).message}`, publicError: `Could not open ${file.name}.` };
        }
      }),
  );
  return collect(results);
}

function collect(results: Loaded[]): LoadResult {
  const docs: TraceDocument[] = [];
  const origins: string[] = [];
  const sweeps: SweepDocument[] = [];
  const errors: string[] = [];
  const publicErrors: string[] = [];
  for (const r of results) {
    if (!('doc' in r)) {
      errors.push(r.error);
      publicErrors.push(r.publicError);
    }
    else if (r.doc.kind === 'sweep') sweeps.push(r.doc.doc);
    else {
      const held = tracesOf(r.doc);
      docs.push(...held);
      origins.push(...held.map(() => r.origin));
    }
  }
  // One bundle and no other trace: the compare as it was shown, in its order.
  const traceFiles = results.flatMap((r) => ('doc' in r && r.doc.kind !== 'sweep' ? [r.doc.kind] : []));
  return { docs, origins, sweeps, errors, publicErrors, inOrder: traceFiles.length === 1 && traceFiles[0] === 'traces' };
}

/** The traces in the order to show them: as loaded when they keep their order (one bundle, stored runs), else sequential first (orderForComparison). */
export function comparisonOrder(result: Pick<LoadResult, 'docs' | 'inOrder'>): TraceDocument[] {
  return result.inOrder ? [...result.docs] : orderForComparison(result.docs);
}

declare global {
  interface Window {
    /**
     * Set by public/prefetch.js (index.html loads it first): the ?trace= requests it started before the app
     * loaded, by URL, as responses (their bodies read here, within the size limit) or bytes (gzip is sniffed
     * here). A string is taken as the file's text.
     */
    pipescopePrefetch?: Map<string, Promise<Response | FileBody>>;
  }
}

/** The download public/prefetch.js started for this URL, taken over once (a later load fetches afresh). */
function prefetchedBody(url: string): Promise<FileBody> | undefined {
  const prefetch = typeof window === 'undefined' ? undefined : window.pipescopePrefetch;
  const started = prefetch?.get(url);
  prefetch?.delete(url);
  return started?.then((r) => (typeof Response !== 'undefined' && r instanceof Response ? responseBytes(r) : (r as FileBody)));
}

function fetchBodyOrThrow(url: string): Promise<FileBody> {
  return prefetchedBody(url) ?? fetchBytes(url);
}

/** pipescope-<mode>[-<chunk>]-<command>-<n>-<run id>.json, e.g. pipescope-chunked-10000-set-1000000-….json */
export function traceFileName(doc: TraceDocument): string {
  const { mode, chunk, command, n, id } = doc.run;
  const modeText = mode === 'chunked' && chunk !== undefined ? `${mode}-${chunk}` : mode;
  return `pipescope-${modeText}-${command.toLowerCase()}-${n}-${id}.json`;
}

/** pipescope-sweep-<command>-<first depth>-<last depth>-<sweep id>.json */
export function sweepFileName(doc: SweepDocument): string {
  const { command, depths, id } = doc.sweep;
  return `pipescope-sweep-${command.toLowerCase()}-${depths[0]}-${depths.at(-1)}-${id}.json`;
}

/** Saves a trace through a temporary object URL. */
export function downloadTrace(doc: TraceDocument): void {
  downloadText(serializeTrace(doc), traceFileName(doc), 'application/json');
}

/** pipescope-compare-<modes>-<command>-<n>-<first run id>.json: the runs of a compare, as one bundle. */
export function bundleFileName(docs: readonly TraceDocument[]): string {
  const modes = [...new Set(docs.map((d) => (d.run.mode === 'chunked' && d.run.chunk !== undefined ? `chunked-${d.run.chunk}` : d.run.mode)))].join('-');
  const { command, n, id } = docs[0]!.run;
  return `pipescope-compare-${modes}-${command.toLowerCase()}-${n}-${id}.json`;
}

/** Saves the runs on screen as one file: a trace file for one run, a bundle (in their order) for several. */
export function downloadTraces(docs: readonly TraceDocument[]): void {
  if (docs.length === 1) downloadTrace(docs[0]!);
  else if (docs.length > 1) downloadText(serializeBundle(docs), bundleFileName(docs), 'application/json');
}

/** Saves a depth sweep (serializeSweep), which opens again with Open trace… or ?trace=. */
export function downloadSweep(doc: SweepDocument): void {
  downloadText(serializeSweep(doc), sweepFileName(doc), 'application/json');
}

/** Saves a table as CSV (UTF-8, with a byte-order mark so spreadsheets read µs and ± right). */
export function downloadCsv(text: string, fileName: string): void {
  downloadText(`\uFEFF${text}`, fileName, 'text/csv;charset=utf-8');
}

/** Saves text as it is (no byte-order mark): a trace or sweep, Mermaid, the text flow, redis-benchmark CSV, an SVG. */
export function downloadText(text: string, fileName: string, type: string): void {
  downloadBlob(new Blob([text], { type }), fileName);
}

/** Saves any blob (a PNG) through a temporary object URL. */
export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

const MODE_ORDER: Record<RunMode, number> = { sequential: 0, pipeline: 1, chunked: 2, auto: 3, multikey: 4, multi: 5, evalsha: 6, eval: 7 };

/** Sequential runs first, then one pipeline, then chunked runs (larger chunks first); otherwise in the given order. */
export function orderForComparison(docs: readonly TraceDocument[]): TraceDocument[] {
  const chunkRank = (d: TraceDocument) => -(d.run.chunk ?? 0);
  return [...docs].sort((a, b) => MODE_ORDER[a.run.mode] - MODE_ORDER[b.run.mode] || chunkRank(a) - chunkRank(b));
}
