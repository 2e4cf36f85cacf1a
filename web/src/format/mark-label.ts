// The full text label of one diagram mark (model/diagram-marks.ts) as one sentence: what the tooltip
// shows in rows, said so that a screen reader can announce it when the keyboard cursor lands on the
// mark. Numbers are 1-based, like the write and read numbers ("command 1 of 10", "write 1"). Pure.
import type { MarkKind, MarkRef } from '../model/diagram-marks.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { replyText, wireName } from './command-text.ts';
import { formatBytes, formatCount, formatUs, plural } from './number-format.ts';

/** What each syscall did, after its size. */
const CALL_PHRASE = {
  read: 'request bytes coming in',
  write: 'reply bytes going out',
  writev: 'reply bytes going out, several buffers at once',
  epoll_wait: 'Redis’s event loop waking up',
} as const;

/** Singular names of the kinds, for the cursor's "next …" hints and the label's first words. */
export const MARK_KIND_NAMES: Record<MarkKind, string> = {
  command: 'command',
  execution: 'Redis execution',
  syscall: 'syscall',
  other: 'other client’s command',
};

export function markLabel(columns: TraceColumns, mark: MarkRef): string {
  switch (mark.kind) {
    case 'command':
      return commandLabel(columns, mark.index);
    case 'execution':
      return executionLabel(columns, mark.index);
    case 'syscall':
      return syscallLabel(columns, mark.index);
    case 'other':
      return otherLabel(columns, mark.index);
  }
}

/** "Command 4 of 10, INCR, sent in write 1 at 4.24 ms, reply read at 6.78 ms (read 1), round trip 2.55 ms; Redis executed it at 5.51 ms ± 41 µs (MONITOR); reply 4." */
export function commandLabel(columns: TraceColumns, index: number): string {
  const { doc } = columns;
  const command = doc.commands[index]!;
  const parts = [
    `${ordinal('Command', index, columns.n)}, ${wireName(doc.run, index)}, sent in write ${formatCount(columns.writeOf[index]! + 1)} at ${formatUs(command.sentUs)}`,
    `reply read at ${formatUs(command.repliedUs)} (read ${formatCount(columns.readOf[index]! + 1)})`,
    `round trip ${formatUs(command.repliedUs - command.sentUs)}`,
  ];
  let sentence = parts.join(', ');
  if (columns.serverUs) {
    sentence += columns.executed?.[index] === 0
      ? '; Redis never executed it (no MONITOR line)'
      : `; Redis executed it at ${formatUs(columns.serverUs[index]!)} ± ${formatUs(columns.clockUncertaintyUs)} (MONITOR)`;
  }
  const nested = columns.nestedErrors?.get(index);
  sentence += 'error' in command ? `; error reply: ${command.error}` : `; reply ${replyText(command)}`;
  if (nested) sentence += `, holding ${nested.atLeast ? 'at least ' : ''}${plural(nested.count, 'error')} in its array`;
  const failed = columns.failedInExec?.get(index);
  if (failed !== undefined) sentence += `; it failed when EXEC ran it${failed ? ` (${failed})` : ''}`;
  return `${sentence}.`;
}

/** "Redis executed command 4 of 10, INCR, at 5.51 ms ± 41 µs (MONITOR); the client sent it at 4.24 ms (write 1) and read its reply at 6.78 ms (read 1)." */
export function executionLabel(columns: TraceColumns, index: number): string {
  const { doc } = columns;
  const command = doc.commands[index]!;
  return (
    `Redis executed ${ordinal('command', index, columns.n)}, ${wireName(doc.run, index)}, at ${formatUs(columns.serverUs![index]!)} ± ${formatUs(columns.clockUncertaintyUs)} (MONITOR); ` +
    `the client sent it at ${formatUs(command.sentUs)} (write ${formatCount(columns.writeOf[index]! + 1)}) and read its reply at ${formatUs(command.repliedUs)} (read ${formatCount(columns.readOf[index]! + 1)}).`
  );
}

/** "Syscall 2 of 3: Redis read() on the run’s socket at 4.89 ms ± 41 µs (strace), 560 B, request bytes coming in." */
export function syscallLabel(columns: TraceColumns, event: number): string {
  const calls = columns.syscalls!;
  const call = calls[event]!;
  const result = call.call === 'epoll_wait' ? plural(call.result, 'event') : call.result < 0 ? `result ${call.result} (an error, e.g. EAGAIN)` : formatBytes(call.result);
  return `${ordinal('Syscall', event, calls.length)}: Redis ${call.call}() on the run’s socket at ${formatUs(call.atUs)} ± ${formatUs(columns.clockUncertaintyUs)} (strace), ${result}, ${CALL_PHRASE[call.call]}.`;
}

/** "Other client’s command 1 of 1: info memory, from 127.0.0.1:33582 at 3.47 ms ± 41 µs (MONITOR), on the same Redis during the run." */
export function otherLabel(columns: TraceColumns, event: number): string {
  const other = columns.others[event]!;
  return `${ordinal('Other client’s command', event, columns.others.length)}: ${other.command}, from ${other.source} at ${formatUs(other.atUs)} ± ${formatUs(columns.clockUncertaintyUs)} (MONITOR), on the same Redis during the run.`;
}

/** "Command 4 of 10": index is 0-based, the text 1-based. */
function ordinal(name: string, index: number, total: number): string {
  return `${name} ${formatCount(index + 1)} of ${formatCount(total)}`;
}
