// Getting traces in and out of the browser: `?trace=<url>` (repeatable, for replays and embeds),
// files picked by the user, and downloads. All text goes through parseTrace, so a file is held to the
// same rules as a live run and its TraceError message is what the user sees.
import { parseTrace, serializeTrace } from '../../../trace/trace-io.ts';
import type { TraceDocument } from '../../../trace/trace-format.ts';

export const MAX_TRACES_SHOWN = 4;

export interface LoadResult {
  docs: TraceDocument[];
  errors: string[];
}

export function traceUrlsFromSearch(search: string): string[] {
  try {
    return new URLSearchParams(search)
      .getAll('trace')
      .map((u) => u.trim())
      .filter((u) => u.length > 0)
      .slice(0, MAX_TRACES_SHOWN);
  } catch {
    return [];
  }
}

export async function loadTraceUrls(urls: string[], fetchText: (url: string) => Promise<string> = fetchTextOrThrow): Promise<LoadResult> {
  const results = await Promise.all(
    urls.map(async (url) => {
      try {
        return { doc: parseTrace(await fetchText(url)) };
      } catch (error) {
        return { error: `Could not load the trace at ${url}: ${(error as Error).message}` };
      }
    }),
  );
  return collect(results);
}

export async function loadTraceFiles(files: ArrayLike<File>): Promise<LoadResult> {
  const results = await Promise.all(
    Array.from(files)
      .slice(0, MAX_TRACES_SHOWN)
      .map(async (file) => {
        try {
          return { doc: parseTrace(await file.text()) };
        } catch (error) {
          return { error: `${file.name}: ${(error as Error).message}` };
        }
      }),
  );
  return collect(results);
}

function collect(results: ({ doc: TraceDocument } | { error: string })[]): LoadResult {
  const docs: TraceDocument[] = [];
  const errors: string[] = [];
  for (const r of results) {
    if ('doc' in r) docs.push(r.doc);
    else errors.push(r.error);
  }
  return { docs, errors };
}

async function fetchTextOrThrow(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
  return response.text();
}

export function traceFileName(doc: TraceDocument): string {
  return `pipescope-${doc.run.mode}-${doc.run.command.toLowerCase()}-${doc.run.n}-${doc.run.id}.json`;
}

/** Saves a trace through a temporary object URL. */
export function downloadTrace(doc: TraceDocument): void {
  const blob = new Blob([serializeTrace(doc)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = traceFileName(doc);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Sequential runs on the left, pipelines on the right, otherwise in the given order. */
export function orderForComparison(docs: readonly TraceDocument[]): TraceDocument[] {
  const rank = (d: TraceDocument) => (d.run.mode === 'sequential' ? 0 : 1);
  return [...docs].sort((a, b) => rank(a) - rank(b));
}
