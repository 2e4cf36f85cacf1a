// The run history as data: what is kept about each saved trace beside its JSON (a summary the History
// table lists without reading the trace), the bounds of the store and which entries to evict to make
// room, and the saved runs grouped by the request (or the files opened together) they came from.
// The IndexedDB adapter (state/history-db.ts) stores these summaries as they are; every one read back
// goes through readHistoryEntry, so an entry written by another version, or damaged, is skipped with a
// reason rather than trusted. Pure, unit-tested.
import { z } from 'zod';
import { RunModeSchema, CommandNameSchema, type TraceDocument } from '../../../trace/format/trace-format.ts';

/** The history's bounds: at most this many runs… */
export const MAX_HISTORY_RUNS = 100;
/** …and at most this many bytes of trace JSON (UTF-8) in all, oldest evicted first. A single larger trace is not kept. */
export const MAX_HISTORY_BYTES = 200 * 1024 * 1024;
/** Runs picked for one comparison (Compare selected): at least two, and at most what the compare view draws. */
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 6;

export interface HistoryBounds {
  maxRuns: number;
  maxBytes: number;
}
export const HISTORY_BOUNDS: HistoryBounds = { maxRuns: MAX_HISTORY_RUNS, maxBytes: MAX_HISTORY_BYTES };

/** Where a saved run came from: measured here, opened from a file, or loaded from a ?trace= link. */
export const HISTORY_SOURCES = ['live', 'file', 'url'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/** Bumped when the summary's shape changes; entries of another version are skipped (their trace is still intact). */
export const HISTORY_ENTRY_VERSION = 1;

const HistoryEntrySchema = z.object({
  v: z.literal(HISTORY_ENTRY_VERSION),
  /** The trace's run.id: one entry per run, whichever way it was shown. */
  id: z.string().min(1).max(64),
  /** When it was saved, ms since the epoch (wall clock): eviction and the table's order go by it. */
  savedAt: z.number().finite(),
  /** Runs saved together: one live request (its modes and repeats), or the files or links opened at once. */
  groupId: z.string().min(1),
  source: z.enum(HISTORY_SOURCES),
  /** The file's name or the link's URL; null for a live run. */
  origin: z.string().nullable(),
  /** The trace's run.startedAt (ISO 8601): when the run itself happened. */
  startedAt: z.string(),
  mode: RunModeSchema,
  chunk: z.number().int().positive().nullable(),
  command: CommandNameSchema,
  /** The operations the run asked for (the workload's N). */
  operations: z.number().int().positive(),
  valueBytes: z.number().int().nonnegative(),
  /** recorder.client, e.g. "ioredis 6.0.0". */
  client: z.string(),
  addedRttMs: z.number().nonnegative().finite(),
  /** Which repeat of its request, from 0. */
  repeat: z.number().int().nonnegative(),
  /** totals.durationUs: t0 to the last reply, µs. */
  durationUs: z.number().nonnegative().finite(),
  /** totals.opsPerSec. */
  opsPerSec: z.number().nonnegative().finite(),
  /** Size of the saved trace JSON, bytes (UTF-8). */
  bytes: z.number().int().nonnegative(),
  /** trace.incomplete.reason for a run cut short (cancelled, connection lost, failed); null or absent: whole. */
  incomplete: z.string().max(32).nullable().optional(),
});
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export interface SavedFrom {
  savedAt: number;
  groupId: string;
  source: HistorySource;
  origin: string | null;
  bytes: number;
}

/** The summary kept beside a trace's JSON. */
export function entrySummary(doc: TraceDocument, from: SavedFrom): HistoryEntry {
  const { run, totals, rtt, recorder } = doc;
  return {
    v: HISTORY_ENTRY_VERSION,
    id: run.id,
    ...from,
    startedAt: run.startedAt,
    mode: run.mode,
    chunk: run.chunk ?? null,
    command: run.command,
    operations: run.operations,
    valueBytes: run.valueBytes,
    client: recorder.client,
    addedRttMs: rtt.addedMs,
    repeat: run.repeat,
    durationUs: totals.durationUs,
    opsPerSec: totals.opsPerSec,
    incomplete: doc.incomplete?.reason ?? null,
  };
}

/** A stored summary as an entry, or why it cannot be one. */
export function readHistoryEntry(raw: unknown): { entry: HistoryEntry } | { problem: string } {
  const parsed = HistoryEntrySchema.safeParse(raw);
  if (parsed.success) return { entry: parsed.data };
  const v = typeof raw === 'object' && raw !== null ? (raw as { v?: unknown }).v : undefined;
  const id = typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : '?';
  if (v !== HISTORY_ENTRY_VERSION) return { problem: `saved run ${id} was written by another version of Pipescope (entry version ${JSON.stringify(v)})` };
  const issue = parsed.error.issues[0];
  return { problem: `saved run ${id} is damaged (${issue ? `${issue.path.join('.') || 'entry'}: ${issue.message}` : 'unreadable'})` };
}

/** Stored summaries read back: the good ones, and a reason for each one skipped. */
export function readHistoryEntries(raws: readonly unknown[]): { entries: HistoryEntry[]; skipped: string[]; skippedIds: string[] } {
  const entries: HistoryEntry[] = [];
  const skipped: string[] = [];
  const skippedIds: string[] = [];
  for (const raw of raws) {
    const read = readHistoryEntry(raw);
    if ('entry' in read) entries.push(read.entry);
    else {
      skipped.push(read.problem);
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      if (typeof id === 'string') skippedIds.push(id);
    }
  }
  return { entries, skipped, skippedIds };
}

export type EvictionChoice = { fits: false } | { fits: true; evict: string[] };

/**
 * Which entries to delete, oldest saved first, so that one more trace of `incomingBytes` keeps the
 * history within its bounds. `entries` are those staying otherwise (without an entry the new one replaces).
 * A trace larger than the byte bound does not fit at all, and nothing is evicted for it.
 */
export function evictionChoice(entries: readonly Pick<HistoryEntry, 'id' | 'savedAt' | 'bytes'>[], incomingBytes: number, bounds: HistoryBounds = HISTORY_BOUNDS): EvictionChoice {
  if (incomingBytes > bounds.maxBytes) return { fits: false };
  const oldestFirst = [...entries].sort((a, b) => a.savedAt - b.savedAt);
  let count = oldestFirst.length + 1;
  let bytes = oldestFirst.reduce((sum, e) => sum + e.bytes, 0) + incomingBytes;
  const evict: string[] = [];
  for (const e of oldestFirst) {
    if (count <= bounds.maxRuns && bytes <= bounds.maxBytes) break;
    evict.push(e.id);
    count -= 1;
    bytes -= e.bytes;
  }
  return { fits: true, evict };
}

export interface HistoryGroup {
  groupId: string;
  /** In the order they were saved (a live request's runs as they completed; files in comparison order). */
  entries: HistoryEntry[];
  /** The group's latest savedAt: groups are listed newest first. */
  newestAt: number;
}

/** The entries grouped by groupId, newest group first; within a group in the order saved. */
export function historyGroups(entries: readonly HistoryEntry[]): HistoryGroup[] {
  const byId = new Map<string, HistoryEntry[]>();
  for (const e of entries) byId.set(e.groupId, [...(byId.get(e.groupId) ?? []), e]);
  return [...byId]
    .map(([groupId, list]) => {
      const sorted = [...list].sort((a, b) => a.savedAt - b.savedAt);
      return { groupId, entries: sorted, newestAt: sorted.at(-1)!.savedAt };
    })
    .sort((a, b) => b.newestAt - a.newestAt);
}

/** Why another run cannot be picked for comparison, or null when it can. */
export function pickBlockedReason(selectedCount: number, isSelected: boolean): string | null {
  if (isSelected || selectedCount < COMPARE_MAX) return null;
  return `At most ${COMPARE_MAX} runs compare at once; clear one to pick another.`;
}

/** Why Compare selected cannot run now, or null when it can. */
export function compareBlockedReason(selectedCount: number): string | null {
  if (selectedCount < COMPARE_MIN) return `Pick ${COMPARE_MIN} to ${COMPARE_MAX} runs to compare (${selectedCount} picked).`;
  if (selectedCount > COMPARE_MAX) return `At most ${COMPARE_MAX} runs compare at once (${selectedCount} picked).`;
  return null;
}
