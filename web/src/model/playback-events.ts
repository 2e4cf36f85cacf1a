// Where playback can stop: the times (µs since t0) at which something visible happens in a run — each
// socket write, each socket read, each execution on Redis (MONITOR) when it was recorded — and the
// run's milestones (first write, first reply, each chunk's first write, last reply), which the playback
// bar marks on its scrubber. With several runs on one time axis the stops are the merge of theirs.
// Pure data from model/trace-columns.ts; the playback clock steps through these, the keys move it.
import { workCommandCount } from '../../../trace/format/wire-layout.ts';
import type { TraceColumns } from './trace-columns.ts';

export type MilestoneKind = 'first-write' | 'first-reply' | 'chunk' | 'last-reply';

export interface Milestone {
  kind: MilestoneKind;
  /** µs since t0. */
  atUs: number;
  /** Short, for the scrubber's marker ("first write", "chunk 2", "last reply"). */
  label: string;
  /** Chunked runs: the chunk (from 1) whose first write this is. */
  chunk?: number;
}

/**
 * Every time a step can land on, ascending and without duplicates: writes, reads and Redis executions
 * (commands Redis never executed left out). A run with none (impossible for a finished trace) gives [].
 */
export function eventTimes(columns: TraceColumns): Float64Array {
  const times: number[] = [...columns.writeAtUs, ...columns.readAtUs];
  if (columns.serverUs) {
    for (let i = 0; i < columns.n; i++) if (columns.executed === null || columns.executed[i] === 1) times.push(columns.serverUs[i]!);
  }
  return sortedUnique(times);
}

/** The merged, ascending, duplicate-free stops of several runs on one time axis. */
export function mergedEventTimes(runs: readonly TraceColumns[]): Float64Array {
  if (runs.length === 1) return eventTimes(runs[0]!);
  return sortedUnique(runs.flatMap((c) => [...eventTimes(c)]));
}

/** A run's milestones in time order: first write, first reply, each chunk's first write (chunked runs, from the 2nd chunk), last reply (when not the first). */
export function milestones(columns: TraceColumns): Milestone[] {
  const { doc, writeAtUs, readAtUs } = columns;
  const out: Milestone[] = [];
  if (writeAtUs.length > 0) out.push({ kind: 'first-write', atUs: writeAtUs[0]!, label: 'first write' });
  const { chunk, mode, command, operations } = doc.run;
  if (mode === 'chunked' && chunk !== undefined && columns.n > 0) {
    // Chunks cut the work commands (not the held-connection PING) every `chunk`; the first chunk's first write is the run's.
    const work = Math.min(columns.n, workCommandCount(mode, command, operations));
    for (let first = chunk, k = 2; first < work; first += chunk, k++) {
      out.push({ kind: 'chunk', atUs: writeAtUs[columns.writeOf[first]!] ?? columns.sentUs[first]!, label: `chunk ${k}`, chunk: k });
    }
  }
  if (readAtUs.length > 0) {
    out.push({ kind: 'first-reply', atUs: readAtUs[0]!, label: 'first reply' });
    if (readAtUs.length > 1) out.push({ kind: 'last-reply', atUs: readAtUs[readAtUs.length - 1]!, label: 'last reply' });
  }
  return out.sort((a, b) => a.atUs - b.atUs);
}

/** Ascending copy of `times` with equal values kept once. */
function sortedUnique(times: number[]): Float64Array {
  const sorted = Float64Array.from(times).sort();
  let k = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[k - 1]) sorted[k++] = sorted[i]!;
  return sorted.slice(0, k);
}
