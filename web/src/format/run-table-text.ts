// The words of the run's data table (views/run/run-table-view.tsx): column heads with their units, and each
// row's cells as text — the wire command's name (MULTI, INCR, EXEC…, format/command-text.ts), times in
// µs since t0 with the precision the trace recorded, the reply or the error's text. The same cells make
// the table's CSV. Pure.
import type { RunTableRow } from '../model/run-table-rows.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { replyText, wireName } from './command-text.ts';
import { csvCell } from '../../../trace/export/export-escape.ts';

export interface RunTableColumn {
  key: keyof RunTableCells;
  /** Column head, with its unit. */
  head: string;
  numeric: boolean;
}

export interface RunTableCells {
  number: string;
  command: string;
  write: string;
  sent: string;
  read: string;
  replied: string;
  latency: string;
  executed: string;
  reply: string;
}

/** The table's columns; "Redis executed at" only for runs that traced Redis (MONITOR). */
export function runTableColumns(columns: TraceColumns): RunTableColumn[] {
  const u = columns.clockUncertaintyUs;
  return [
    { key: 'number', head: '#', numeric: true },
    { key: 'command', head: 'command', numeric: false },
    { key: 'write', head: 'write #', numeric: true },
    { key: 'sent', head: 'sent at (µs since t0)', numeric: true },
    { key: 'read', head: 'read #', numeric: true },
    { key: 'replied', head: 'reply at (µs since t0)', numeric: true },
    { key: 'latency', head: 'latency (µs)', numeric: true },
    ...(columns.serverUs ? [{ key: 'executed' as const, head: `Redis executed at (µs since t0, ± ${microseconds(u)}, MONITOR)`, numeric: true }] : []),
    { key: 'reply', head: 'reply / outcome', numeric: false },
  ];
}

export function runTableCells(columns: TraceColumns, row: RunTableRow): RunTableCells {
  const command = columns.doc.commands[row.index]!;
  return {
    number: String(row.number),
    command: wireName(columns.doc.run, row.index),
    write: String(row.write),
    sent: microseconds(row.sentUs),
    read: String(row.read),
    replied: microseconds(row.repliedUs),
    latency: microseconds(row.latencyUs),
    executed: row.executedUs === null ? '' : row.executedUs === 'never' ? 'never (no MONITOR line)' : microseconds(row.executedUs),
    reply: 'error' in command ? `error: ${command.error}` : replyText(command),
  };
}

/** A time in µs as a plain number for a table cell: whole µs as recorded, at most 3 decimals, no grouping (sorts and pastes). */
export function microseconds(us: number): string {
  return String(Math.round(us * 1000) / 1000);
}

/** The whole table as CSV (RFC 4180: every cell quoted where it needs to be, none able to start a formula: export-escape.ts), heads first. */
export function runTableCsv(columns: TraceColumns, rows: readonly RunTableRow[]): string {
  const heads = runTableColumns(columns);
  const lines = [heads.map((c) => csvCell(c.head))];
  for (const row of rows) {
    const cells = runTableCells(columns, row);
    lines.push(heads.map((c) => csvCell(cells[c.key])));
  }
  return `${lines.map((l) => l.join(',')).join('\r\n')}\r\n`;
}


