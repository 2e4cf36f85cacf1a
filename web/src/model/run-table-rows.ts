// The data-table view of a run, as numbers: one row per command on the wire, in the trace's order, with
// the socket write that carried it and the read that completed its reply (1-based, as the wire view and
// the tooltips number them), its times in µs since t0, its latency and, when MONITOR was on, when Redis
// executed it. Rows are built one page at a time (`from`, `count`), so a 100,000-command run builds
// only the hundred rows on screen. Pure; format/run-table-text.ts words the cells.
import type { TraceColumns } from './trace-columns.ts';

export interface RunTableRow {
  /** 0-based command index (the trace's `index`); shown as number = index + 1. */
  index: number;
  number: number;
  /** 1-based write (of doc.writes) that carried the request, and when it was sent, µs since t0. */
  write: number;
  sentUs: number;
  /** 1-based read (of doc.reads) that completed the reply, and when, µs since t0. */
  read: number;
  repliedUs: number;
  /** repliedUs − sentUs, µs. */
  latencyUs: number;
  /**
   * When Redis executed it (MONITOR), µs since t0 on the client's clock ± clockUncertaintyUs;
   * 'never' when MONITOR saw no line for it (refused while queueing, discarded by EXECABORT);
   * null when the run did not trace Redis.
   */
  executedUs: number | 'never' | null;
  error: boolean;
}

/** Commands per page of the table. */
export const RUN_TABLE_PAGE_ROWS = 100;

export function runTablePageCount(columns: TraceColumns, pageRows = RUN_TABLE_PAGE_ROWS): number {
  return Math.max(1, Math.ceil(columns.n / pageRows));
}

/** Rows for commands [from, from + count), clipped to the run. */
export function runTableRows(columns: TraceColumns, from: number, count: number): RunTableRow[] {
  const rows: RunTableRow[] = [];
  const end = Math.min(columns.n, Math.max(0, from) + Math.max(0, count));
  for (let i = Math.max(0, from); i < end; i++) {
    const sentUs = columns.sentUs[i]!;
    const repliedUs = columns.repliedUs[i]!;
    let executedUs: RunTableRow['executedUs'] = null;
    if (columns.serverUs) executedUs = columns.executed?.[i] === 0 ? 'never' : columns.serverUs[i]!;
    rows.push({
      index: i,
      number: i + 1,
      write: columns.writeOf[i]! + 1,
      sentUs,
      read: columns.readOf[i]! + 1,
      repliedUs,
      latencyUs: repliedUs - sentUs,
      executedUs,
      error: columns.isError[i] === 1,
    });
  }
  return rows;
}
