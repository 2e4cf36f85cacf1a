// The tooltip's rows for any diagram mark (model/diagram-marks.ts): a command and its Redis execution
// share the command's rows (command-details.ts); a syscall and another client's command have their own
// (server-event-details.ts). Pure.
import { markExists, type MarkRef } from '../model/diagram-marks.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { commandDetails, type CommandDetails } from './command-details.ts';
import { otherDetails, syscallDetails } from './server-event-details.ts';

/** The rows for `mark`, or null when the trace draws no such mark. */
export function markDetails(columns: TraceColumns, mark: MarkRef): CommandDetails | null {
  if (!markExists(columns, mark)) return null;
  if (mark.kind === 'command' || mark.kind === 'execution') return commandDetails(columns, mark.index);
  if (mark.kind === 'syscall') return syscallDetails(columns, mark.index);
  return otherDetails(columns, mark.index);
}
