// Every mark a diagram draws, in one time order, for the keyboard cursor: each command (its request
// and reply arrows, placed at sentUs), each Redis execution (MONITOR, at serverUs; commands Redis never
// ran have none), each strace syscall and each other client's command (MONITOR). The order is
// (time µs, kind rank, index), walked by binary search on the sorted time columns of trace-columns.ts,
// so a step costs O(kinds · log N) and a 100,000-command trace allocates nothing. Pure.
import { lowerBound, upperBound } from '../base/sorted-search.ts';
import type { TraceColumns } from './trace-columns.ts';

export type MarkKind = 'command' | 'execution' | 'syscall' | 'other';

/** A mark: `index` is the command index (command, execution), or the event index into columns.syscalls / columns.others. */
export interface MarkRef {
  kind: MarkKind;
  index: number;
}

/** Tie-break at equal times: a command before its execution, Redis's syscalls next, other clients last. */
const RANK: Record<MarkKind, number> = { command: 0, execution: 1, syscall: 2, other: 3 };
export const MARK_KINDS: readonly MarkKind[] = ['command', 'execution', 'syscall', 'other'];

/** The sorted time column (µs since t0) of a kind's marks, or null when the trace has none of them. */
function timesOf(columns: TraceColumns, kind: MarkKind): ArrayLike<number> | null {
  switch (kind) {
    case 'command':
      return columns.sentUs;
    case 'execution':
      return columns.serverUs;
    case 'syscall':
      return columns.syscalls ? columns.syscallAtUs : null;
    case 'other':
      return columns.otherAtUs;
  }
}

/** Whether a mark of this kind is drawn at `index` (a command Redis never executed has no execution mark). */
function exists(columns: TraceColumns, kind: MarkKind, index: number): boolean {
  const times = timesOf(columns, kind);
  if (!times || index < 0 || index >= times.length) return false;
  return kind !== 'execution' || columns.executed === null || columns.executed[index] === 1;
}

/** When a mark sits, µs since t0. */
export function markTimeUs(columns: TraceColumns, mark: MarkRef): number {
  return timesOf(columns, mark.kind)![mark.index]!;
}

/** Whether `mark` names a mark this trace draws. */
export function markExists(columns: TraceColumns, mark: MarkRef): boolean {
  return exists(columns, mark.kind, mark.index);
}

/** How many marks of each kind the trace has. */
export function markCounts(columns: TraceColumns): Record<MarkKind, number> {
  let executions = columns.serverUs ? columns.n : 0;
  if (columns.serverUs && columns.executed) for (let i = 0; i < columns.n; i++) executions -= columns.executed[i] === 1 ? 0 : 1;
  return { command: columns.n, execution: executions, syscall: columns.syscalls?.length ?? 0, other: columns.others.length };
}

/** Negative when a comes first in the marks' order. */
function compare(columns: TraceColumns, a: MarkRef, b: MarkRef): number {
  return markTimeUs(columns, a) - markTimeUs(columns, b) || RANK[a.kind] - RANK[b.kind] || a.index - b.index;
}

/** The first mark of `kind` after `from` in the marks' order (the kind's first mark when from is null). */
function nextOfKind(columns: TraceColumns, kind: MarkKind, from: MarkRef | null): MarkRef | null {
  const times = timesOf(columns, kind);
  if (!times) return null;
  let i: number;
  if (from === null) i = 0;
  else if (from.kind === kind) i = from.index + 1;
  else {
    // Within one column, equal times keep index order; the rank decides whether those at from's time come after it.
    const t = markTimeUs(columns, from);
    i = RANK[kind] > RANK[from.kind] ? lowerBound(times, t) : upperBound(times, t);
  }
  while (i < times.length && !exists(columns, kind, i)) i++;
  return i < times.length ? { kind, index: i } : null;
}

/** The last mark of `kind` before `from` (the kind's last mark when from is null). */
function previousOfKind(columns: TraceColumns, kind: MarkKind, from: MarkRef | null): MarkRef | null {
  const times = timesOf(columns, kind);
  if (!times) return null;
  let i: number;
  if (from === null) i = times.length - 1;
  else if (from.kind === kind) i = from.index - 1;
  else {
    const t = markTimeUs(columns, from);
    i = (RANK[kind] < RANK[from.kind] ? upperBound(times, t) : lowerBound(times, t)) - 1;
  }
  while (i >= 0 && !exists(columns, kind, i)) i--;
  return i >= 0 ? { kind, index: i } : null;
}

/**
 * The mark `steps` places after (steps > 0) or before (steps < 0) `from` in time order, of any kind or only
 * of `only`; stops at the first or last mark. From null, a forward step lands on the first mark and a backward one on the last.
 * Returns null only when there is no such mark at all.
 */
export function stepMark(columns: TraceColumns, from: MarkRef | null, steps: number, only?: MarkKind): MarkRef | null {
  const kinds = only ? [only] : MARK_KINDS;
  const forward = steps >= 0;
  let current = from !== null && markExists(columns, from) ? from : null;
  for (let s = 0; s < Math.max(1, Math.abs(steps)); s++) {
    let best: MarkRef | null = null;
    for (const kind of kinds) {
      const candidate = forward ? nextOfKind(columns, kind, current) : previousOfKind(columns, kind, current);
      if (candidate && (best === null || (forward ? compare(columns, candidate, best) < 0 : compare(columns, candidate, best) > 0))) best = candidate;
    }
    if (best === null) break;
    current = best;
  }
  return current;
}

/** Every mark in order: for tests and small traces only (allocates one object per mark). */
export function allMarks(columns: TraceColumns): MarkRef[] {
  const marks: MarkRef[] = [];
  for (let mark = stepMark(columns, null, 1); mark !== null; ) {
    marks.push(mark);
    const next = stepMark(columns, mark, 1);
    if (next === null || (next.kind === mark.kind && next.index === mark.index)) break;
    mark = next;
  }
  return marks;
}
