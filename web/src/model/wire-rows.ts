// The wire view's rows: every client socket write, every client read (chunk) and every read()/write()/
// writev() Redis made on the run's socket (strace), merged in time order, with their bytes, escaped
// heads and the commands or replies they carried (as indices; format/wire-text.ts words them). Rows
// are produced on demand (the first `limit`), and any event's position in that order is found by
// binary search, so a million-event run never builds a million rows. Pure; cached per trace.
import type { TraceColumns } from './trace-columns.ts';
import { lowerBound, upperBound } from '../base/sorted-search.ts';

export type WireKind = 'client-write' | 'client-read' | 'server-read' | 'server-write';
/** Where an event lives: doc.writes, doc.reads, or columns.syscalls (by index). */
export type WireSource = 'write' | 'read' | 'syscall';

export interface WireRef {
  source: WireSource;
  event: number;
}

/**
 * The commands (or replies) one wire event carried, by index in the run's command order (MONITOR's
 * execution order for Redis's calls): `count` whole ones from `first`; count 0 = part of `first`;
 * first null = part of one that cannot be named.
 */
export interface WireCarried {
  unit: 'command' | 'reply';
  first: number | null;
  count: number;
}

export interface WireRow extends WireRef {
  key: string;
  kind: WireKind;
  atUs: number;
  /** Bytes moved; for a syscall its result (−1 for an error). */
  bytes: number;
  /** Escaped first bytes, "…" cut marker removed; null when the run did not record bytes. */
  head: string | null;
  truncated: boolean;
  /** Commands 0–9, reply 3, part of command 4…; null when nothing can be said. */
  carried: WireCarried | null;
  /** Redis rows: which system call (read, write or writev). */
  call?: 'read' | 'write' | 'writev';
}

export const wireKey = (ref: WireRef): string => `${ref.source}:${ref.event}`;

export function parseWireKey(key: string): WireRef | null {
  const match = /^(write|read|syscall):(\d+)$/.exec(key);
  return match ? { source: match[1] as WireSource, event: Number(match[2]) } : null;
}

interface WireIndex {
  /** Indices into columns.syscalls of the read/write/writev calls (epoll_wait moves no bytes), and their times. */
  ioCalls: Uint32Array;
  ioAtUs: Float64Array;
  /** Successful reads and writes(v) of Redis, for the commands each carried (by MONITOR order). */
  readCallAtUs: Float64Array;
  writeCallAtUs: Float64Array;
  count: number;
}

const cache = new WeakMap<TraceColumns, WireIndex>();

function wireIndex(columns: TraceColumns): WireIndex {
  const cached = cache.get(columns);
  if (cached) return cached;
  const calls = columns.syscalls ?? [];
  const io: number[] = [];
  const reads: number[] = [];
  const writes: number[] = [];
  calls.forEach((c, k) => {
    if (c.call === 'epoll_wait') return;
    io.push(k);
    if (c.result > 0) (c.call === 'read' ? reads : writes).push(c.atUs);
  });
  const ioCalls = Uint32Array.from(io);
  const index: WireIndex = {
    ioCalls,
    ioAtUs: Float64Array.from(ioCalls, (k) => calls[k]!.atUs),
    readCallAtUs: Float64Array.from(reads),
    writeCallAtUs: Float64Array.from(writes),
    count: columns.writeAtUs.length + columns.readAtUs.length + ioCalls.length,
  };
  cache.set(columns, index);
  return index;
}

/** True when the run recorded its bytes (server-traced and raw-engine runs). */
export function wireHeadsRecorded(columns: TraceColumns): boolean {
  return columns.doc.writes.some((w) => w.head !== undefined) || columns.doc.reads.some((r) => r.head !== undefined);
}

export function wireRowCount(columns: TraceColumns): number {
  return wireIndex(columns).count;
}

/** The first `limit` rows in time order; at equal times client writes first, then Redis's calls, then client reads. */
export function wireRows(columns: TraceColumns, limit: number): WireRow[] {
  const { ioCalls, ioAtUs } = wireIndex(columns);
  const { writeAtUs, readAtUs } = columns;
  const rows: WireRow[] = [];
  let w = 0;
  let s = 0;
  let r = 0;
  while (rows.length < limit) {
    const tw = w < writeAtUs.length ? writeAtUs[w]! : Infinity;
    const ts = s < ioAtUs.length ? ioAtUs[s]! : Infinity;
    const tr = r < readAtUs.length ? readAtUs[r]! : Infinity;
    if (tw === Infinity && ts === Infinity && tr === Infinity) break;
    if (tw <= ts && tw <= tr) rows.push(wireRow(columns, { source: 'write', event: w++ }));
    else if (ts <= tr) rows.push(wireRow(columns, { source: 'syscall', event: ioCalls[s++]! }));
    else rows.push(wireRow(columns, { source: 'read', event: r++ }));
  }
  return rows;
}

/** When a wire event happened (µs since t0), or null if the trace has no such event. */
export function wireEventTimeUs(columns: TraceColumns, ref: WireRef): number | null {
  const times = ref.source === 'write' ? columns.writeAtUs : ref.source === 'read' ? columns.readAtUs : columns.syscallAtUs;
  return ref.event < times.length ? times[ref.event]! : null;
}

/** Where an event sits in wireRows' order; null for an event without a row (epoll_wait, out of range). */
export function wirePosition(columns: TraceColumns, ref: WireRef): number | null {
  const { ioCalls, ioAtUs } = wireIndex(columns);
  const { writeAtUs, readAtUs } = columns;
  if (ref.source === 'write') {
    if (ref.event >= writeAtUs.length) return null;
    const t = writeAtUs[ref.event]!;
    return ref.event + lowerBound(ioAtUs, t) + lowerBound(readAtUs, t);
  }
  if (ref.source === 'read') {
    if (ref.event >= readAtUs.length) return null;
    const t = readAtUs[ref.event]!;
    return ref.event + upperBound(writeAtUs, t) + upperBound(ioAtUs, t);
  }
  const rank = lowerBound(ioCalls, ref.event);
  if (ioCalls[rank] !== ref.event) return null;
  const t = ioAtUs[rank]!;
  return rank + upperBound(writeAtUs, t) + lowerBound(readAtUs, t);
}

export function wireRow(columns: TraceColumns, ref: WireRef): WireRow {
  const { doc } = columns;
  const key = wireKey(ref);
  if (ref.source === 'write') {
    const w = doc.writes[ref.event]!;
    return { ...ref, key, kind: 'client-write', atUs: w.atUs, bytes: w.bytes, ...headOf(w.head), carried: { unit: 'command', first: w.firstCommand, count: w.commands } };
  }
  if (ref.source === 'read') {
    const r = doc.reads[ref.event]!;
    return { ...ref, key, kind: 'client-read', atUs: r.atUs, bytes: r.bytes, ...headOf(r.head), carried: { unit: 'reply', first: r.firstReply, count: r.replies } };
  }
  const call = columns.syscalls![ref.event]!;
  const kind: WireKind = call.call === 'read' ? 'server-read' : 'server-write';
  return {
    ...ref, key, kind, atUs: call.atUs, bytes: call.result, ...headOf(call.head), carried: serverCarried(columns, kind, call.atUs, call.result),
    call: call.call === 'epoll_wait' ? undefined : call.call,
  };
}

function headOf(head: string | undefined): { head: string | null; truncated: boolean } {
  if (head === undefined) return { head: null, truncated: false };
  return head.endsWith('…') ? { head: head.slice(0, -1), truncated: true } : { head, truncated: false };
}

/**
 * Which commands a Redis read() brought in: those Redis executed after it and before its next read();
 * which replies a write() sent: those of commands executed since its previous write. Both from MONITOR's
 * execution times, on the same Redis clock as strace's, so their order is exact.
 */
function serverCarried(columns: TraceColumns, kind: WireKind, atUs: number, result: number): WireCarried | null {
  const serverUs = columns.serverUs;
  if (!serverUs || result <= 0) return null;
  const { readCallAtUs, writeCallAtUs } = wireIndex(columns);
  let first: number;
  let end: number;
  if (kind === 'server-read') {
    const next = upperBound(readCallAtUs, atUs);
    first = lowerBound(serverUs, atUs);
    end = next < readCallAtUs.length ? lowerBound(serverUs, readCallAtUs[next]!) : serverUs.length;
  } else {
    const previous = lowerBound(writeCallAtUs, atUs) - 1;
    first = previous >= 0 ? lowerBound(serverUs, writeCallAtUs[previous]!) : 0;
    end = lowerBound(serverUs, atUs);
  }
  const unit = kind === 'server-read' ? 'command' : 'reply';
  return end <= first ? { unit, first: null, count: 0 } : { unit, first, count: end - first };
}
