// What the tooltip says about a mark on the Redis side that is not a command: one of strace's system
// calls on the run's socket, or a command another connection ran meanwhile (MONITOR). Pure: rows of
// text in the same shape as command-details.ts, painted by tooltip-painter.ts.
import type { TraceColumns } from '../model/trace-columns.ts';
import type { CommandDetails } from './command-details.ts';
import { formatBytes, formatUs } from './number-format.ts';

const CALL_MEANING = {
  read: 'Redis read the run’s socket: request bytes coming in.',
  write: 'Redis wrote to the run’s socket: reply bytes going out.',
  writev: 'Redis wrote several buffers to the run’s socket at once: reply bytes going out.',
  epoll_wait: 'Redis’s event loop waking up: the socket had something to do.',
} as const;

export function syscallDetails(columns: TraceColumns, event: number): CommandDetails {
  const call = columns.syscalls![event]!;
  const rows = [{ label: 'at', value: `${formatUs(call.atUs)} after t0` }];
  if (call.call === 'epoll_wait') rows.push({ label: 'events', value: String(call.result) });
  else rows.push({ label: 'result', value: call.result < 0 ? `${call.result} (error, e.g. EAGAIN)` : formatBytes(call.result) });
  if (call.head) rows.push({ label: 'bytes', value: call.head });
  return {
    title: `${call.call}()`,
    rows,
    note: `${CALL_MEANING[call.call]} Seen by strace; time on the client’s clock, ±${formatUs(columns.clockUncertaintyUs)}.`,
  };
}

export function otherDetails(columns: TraceColumns, event: number): CommandDetails {
  const other = columns.others[event]!;
  return {
    title: other.command,
    rows: [
      { label: 'from', value: other.source },
      { label: 'at', value: `${formatUs(other.atUs)} after t0` },
    ],
    note: `Another connection’s command on the same Redis, from MONITOR (clock ±${formatUs(columns.clockUncertaintyUs)}): it shared the event loop with the run.`,
  };
}
