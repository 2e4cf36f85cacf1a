// What the tooltip says about one command: its text, measured times and latency (and, server-traced,
// when Redis executed it), its reply, and the socket write and read that carried it. Pure: returns rows of text, painted by tooltip-painter.ts.
import { nestedErrors, type NestedErrors } from '../model/nested-errors.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { clusterCommandRows } from './cluster-command-details.ts';
import { commandText, replyText } from './command-text.ts';
import { formatBytes, formatCount, formatUs, plural } from './number-format.ts';

export interface DetailRow {
  label: string;
  value: string;
  /** A part of value to emphasise (a key's {hash tag}), when there is one. */
  emphasis?: string;
}

export interface CommandDetails {
  title: string;
  rows: DetailRow[];
  note: string;
}

export function commandDetails(columns: TraceColumns, index: number): CommandDetails {
  const { doc } = columns;
  const command = doc.commands[index]!;
  const write = doc.writes[columns.writeOf[index]!]!;
  const read = doc.reads[columns.readOf[index]!]!;
  const reply = 'error' in command ? `error: ${command.error}` : replyText(command);
  const serverUs = columns.executed?.[index] === 0 ? undefined : columns.serverUs?.[index];
  const u = formatUs(columns.clockUncertaintyUs);
  const notRun = columns.executed?.[index] === 0 ? [{ label: 'executed', value: 'never: Redis did not run it (no MONITOR line)' }] : [];
  const executed = serverUs === undefined ? notRun : [{ label: 'executed', value: `${formatUs(serverUs)} after t0 ± ${u} (MONITOR)` }];
  return {
    // Numbered from 1, as the writes and reads below are ("command 1 of 10"); `index` is the trace's, from 0.
    title: `command ${formatCount(index + 1)} of ${formatCount(doc.commands.length)}  ${commandText(doc.run, index)}`,
    rows: [
      { label: 'sent', value: `${formatUs(command.sentUs)} after t0` },
      ...executed,
      { label: 'replied', value: `${formatUs(command.repliedUs)} after t0` },
      { label: 'latency', value: formatUs(command.repliedUs - command.sentUs) },
      { label: 'reply', value: reply },
      ...inside(nestedErrors(doc, index)),
      ...failedWhenRun(columns.failedInExec?.get(index)),
      ...clusterCommandRows(doc, index),
      {
        label: 'write',
        value: `#${formatCount(columns.writeOf[index]! + 1)} of ${formatCount(doc.writes.length)}: carried ${plural(write.commands, 'command')}, ${formatBytes(write.bytes)}`,
      },
      {
        label: 'read',
        value: `#${formatCount(columns.readOf[index]! + 1)} of ${formatCount(doc.reads.length)}: completed ${plural(read.replies, 'reply', 'replies')}, ${formatBytes(read.bytes)}`,
      },
    ],
    note: serverUs === undefined ? 'Times measured at the client socket.' : 'Sent and replied measured at the client socket; executed from Redis’s MONITOR, on the client’s clock.',
  };
}

/** "contains 1 error", "contains at least 2 errors": of a reply whose array holds error elements. */
export function nestedErrorsText(e: NestedErrors): string {
  return `contains ${e.atLeast ? 'at least ' : ''}${plural(e.count, 'error')}`;
}

/** The tooltip row of a queued command that failed when EXEC ran it: none for any other. */
function failedWhenRun(error: string | null | undefined): DetailRow[] {
  if (error === undefined) return [];
  return [{ label: 'failed', value: `when EXEC ran it${error ? `: ${error}` : ''} — its element of EXEC’s reply; queuing had said QUEUED` }];
}

/** The tooltip row for errors inside a reply (EXEC's array after a runtime error): none when it holds none. */
function inside(e: NestedErrors | null): DetailRow[] {
  return e ? [{ label: 'inside', value: `${nestedErrorsText(e)} — element${e.count === 1 ? '' : 's'} of the array; the other commands still ran` }] : [];
}
