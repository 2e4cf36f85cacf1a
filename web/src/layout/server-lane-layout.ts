// Layout of the Redis side of a server-traced run (SVG mode): each command's execution on the Redis
// lifeline at its MONITOR time with a band of ± the clock uncertainty, strace's syscalls as marks in
// the Redis lane (with the label each may carry, "read 560 B", which diagram-labels-layout.ts places),
// and other connections' commands as grey marks. Only what is in view, by binary search; beyond
// MAX_MARKS per kind, marks merge per pixel row so a zoom into a huge run never builds more elements
// than pixels. Pure: µs in, plot px out.
import type { Syscall } from '../../../trace/format/trace-format.ts';
import { formatBytes, formatCount } from '../format/number-format.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import type { DiagramGeometry } from './diagram-geometry.ts';
import { visibleRange } from '../base/sorted-search.ts';
import type { TimeScale } from './time-scale-layout.ts';

/** Above this many events of one kind in view, events closer than 1 px merge into one mark. */
export const MAX_MARKS = 1000;

export interface ExecutionMark {
  /** First command of the mark (the only one unless count > 1). */
  index: number;
  count: number;
  y: number;
  /** The ± clock-uncertainty band, plot px. */
  bandY1: number;
  bandY2: number;
  error: boolean;
}

export interface SyscallMark {
  /** Index into columns.syscalls (the first, when count > 1). */
  event: number;
  count: number;
  call: Syscall['call'];
  y: number;
  label?: string;
}

export interface OtherMark {
  /** Index into columns.others (the first, when count > 1). */
  event: number;
  count: number;
  y: number;
}

export interface ServerLaneLayout {
  executions: ExecutionMark[];
  syscalls: SyscallMark[];
  others: OtherMark[];
  /** Where the Redis-lane labels start: just right of the syscall marks. */
  labelX: number;
}

/** "read 560 B", "writev 1.2 KiB", "read −1 (error)"; epoll_wait stays unlabelled (its tooltip says what it is). */
export function syscallLabel(call: Syscall): string | undefined {
  if (call.call === 'epoll_wait') return undefined;
  return call.result < 0 ? `${call.call} ${call.result} (error)` : `${call.call} ${formatBytes(call.result)}`;
}

/** Indices [start, end) of a sorted column, grouped into runs whose y lies within 1 px of the run's first. */
/** keep: 0 at the indexes to leave out (commands Redis never executed). */
function groups(times: ArrayLike<number>, start: number, end: number, scale: TimeScale, merge: boolean, keep: Uint8Array | null = null): { first: number; count: number; y: number }[] {
  const out: { first: number; count: number; y: number }[] = [];
  for (let i = start; i < end; i++) {
    if (keep && keep[i] === 0) continue;
    const y = scale(times[i]!);
    const last = out.at(-1);
    if (merge && last && y - last.y < 1) last.count++;
    else out.push({ first: i, count: 1, y });
  }
  return out;
}

export function serverLaneLayout(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry): ServerLaneLayout {
  const [fromUs, toUs] = scale.domain() as [number, number];
  const u = columns.clockUncertaintyUs;
  const executions: ExecutionMark[] = [];
  if (columns.serverUs) {
    // An execution's band may reach into view before the execution itself does.
    const { start, end } = visibleRange(columns.serverUs, fromUs - u, toUs + u);
    for (const grp of groups(columns.serverUs, start, end, scale, end - start > MAX_MARKS, columns.executed)) {
      const lastUs = columns.serverUs[grp.first + grp.count - 1]!;
      let error = false;
      for (let i = grp.first; i < grp.first + grp.count && !error; i++) error = columns.isError[i] === 1;
      executions.push({
        index: grp.first,
        count: grp.count,
        y: grp.y,
        bandY1: scale(columns.serverUs[grp.first]! - u),
        bandY2: scale(lastUs + u),
        error,
      });
    }
  }
  const syscalls: SyscallMark[] = [];
  if (columns.syscalls) {
    const { start, end } = visibleRange(columns.syscallAtUs, fromUs, toUs);
    for (const grp of groups(columns.syscallAtUs, start, end, scale, end - start > MAX_MARKS)) {
      const call = columns.syscalls[grp.first]!;
      const label = grp.count > 1 ? `${formatCount(grp.count)} calls` : syscallLabel(call);
      syscalls.push({ event: grp.first, count: grp.count, call: call.call, y: grp.y, ...(label ? { label } : {}) });
    }
  }
  const others: OtherMark[] = [];
  {
    const { start, end } = visibleRange(columns.otherAtUs, fromUs, toUs);
    for (const grp of groups(columns.otherAtUs, start, end, scale, end - start > MAX_MARKS)) others.push({ event: grp.first, count: grp.count, y: grp.y });
  }
  return { executions, syscalls, others, labelX: g.serverX + 17 };
}
