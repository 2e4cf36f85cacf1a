// The static site's list of recorded runs: traces/index.json beside the page (written by
// scripts/record-static-traces.mjs from public/traces/), checked with zod. Each entry is one trace file
// with its title, one sentence and its provenance; entries sharing a group are meant to be compared, so
// the landing page (views/recorded-runs/recorded-runs-view.tsx) links each file alone and the group's files together.
// Links are relative (`?trace=traces/<file>`), so the site works under any sub-path.
import { z } from 'zod';
import { fetchText } from '../base/fetch-body.ts';
import { MAX_TRACE_FILES } from '../../../trace/protocol/page-limits.ts';

/** Where the recordings are, relative to the page. */
export const TRACES_BASE = 'traces/';

const ProvenanceSchema = z.object({
  /** Redis's own INFO version, from the trace's redis.version. */
  redis: z.string(),
  /** The client library that sent the commands, e.g. "ioredis 6.0.0". */
  client: z.string(),
  /** The recorder's runtime, e.g. "node v20.20.2". */
  runtime: z.string().optional(),
  /** Platform, architecture, cores × CPU model of the recording machine (client and Redis on it). */
  machine: z.string(),
  /** When the run started (the trace's run.startedAt), ISO 8601. */
  recordedAt: z.iso.datetime(),
  /** Round-trip time added by Pipescope's TCP delay proxy, ms; 0 when the run went straight to Redis. */
  addedDelayMs: z.number().nonnegative().finite(),
  /** The exact command that recorded the file. */
  command: z.string(),
});

const EntrySchema = z.object({
  file: z.string().regex(/^[\w.-]+\.json(\.gz)?$/, 'a file name in traces/'),
  title: z.string().min(1),
  about: z.string(),
  group: z.string().min(1),
  provenance: ProvenanceSchema,
});
export type TraceIndexEntry = z.infer<typeof EntrySchema>;

export const TraceIndexSchema = z.object({
  format: z.literal('pipescope-trace-index'),
  version: z.literal(1),
  traces: z.array(EntrySchema),
});
export type TraceIndex = z.infer<typeof TraceIndexSchema>;

export interface TraceIndexGroup {
  title: string;
  entries: TraceIndexEntry[];
}

/** The index, or an Error whose message says what is wrong with it (never thrown past the caller). */
export function parseTraceIndex(text: string): TraceIndex {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`it is not JSON (${(error as Error).message})`);
  }
  const parsed = TraceIndexSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  }
  return parsed.data;
}

/** Entries grouped, groups and entries in the index's order. */
export function groupTraceIndex(index: TraceIndex): TraceIndexGroup[] {
  const groups = new Map<string, TraceIndexEntry[]>();
  for (const entry of index.traces) groups.set(entry.group, [...(groups.get(entry.group) ?? []), entry]);
  return [...groups].map(([title, entries]) => ({ title, entries }));
}

/** A relative link that opens these recordings (one `trace=` each, in order), from any sub-path. */
export function traceLink(entries: readonly TraceIndexEntry[]): string {
  const params = new URLSearchParams();
  for (const entry of entries.slice(0, MAX_TRACE_FILES)) params.append('trace', `${TRACES_BASE}${entry.file}`);
  return `?${params.toString().replaceAll('%2F', '/')}`;
}

/** "Redis 7.0.15 · ioredis 6.0.0 on node v20.20.2 · Linux x64, 2 × AMD EPYC · 2026-11-23 20:48 UTC". */
export function provenanceLine(p: TraceIndexEntry['provenance']): string {
  const when = `${p.recordedAt.slice(0, 10)} ${p.recordedAt.slice(11, 16)} UTC`;
  return `Redis ${p.redis} · ${p.client}${p.runtime ? ` on ${p.runtime}` : ''} · ${p.machine} · recorded ${when}`;
}

/** The added delay, always said, and whose it is. */
export function addedDelayText(p: TraceIndexEntry['provenance']): string {
  return p.addedDelayMs > 0 ? `${p.addedDelayMs} ms added RTT (Pipescope’s delay proxy)` : 'no added delay (delay proxy off)';
}

/** Fetches and checks traces/index.json; the error says which file and what failed. */
export async function loadTraceIndex(fetchIndex: (url: string) => Promise<string> = fetchText): Promise<TraceIndex> {
  const url = `${TRACES_BASE}index.json`;
  try {
    return parseTraceIndex(await fetchIndex(url));
  } catch (error) {
    throw new Error(`The list of recorded runs (${url}) could not be read: ${(error as Error).message}`);
  }
}

let pageIndex: Promise<TraceIndex> | null = null;

/** The index, fetched once per page however often the landing mounts; a failed fetch is tried again next time. */
export function traceIndexOnce(): Promise<TraceIndex> {
  pageIndex ??= loadTraceIndex();
  pageIndex.catch(() => (pageIndex = null));
  return pageIndex;
}
