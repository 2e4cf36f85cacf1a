// A trace document as typed columns, built once per document and shared by every layout: the
// per-command and per-event times sit in Float64Arrays so a 100,000-command trace lays out without
// allocating per command. Invariant (guaranteed by TraceBuilder's FIFO derivation): sentUs,
// repliedUs, writeAtUs and readAtUs are each non-decreasing, so they can be binary-searched.
import { failedInTransaction, nestedErrors, type NestedErrors } from './nested-errors.ts';
import type { Syscall, TraceDocument } from '../../../trace/format/trace-format.ts';

/** A command another connection ran during the run (MONITOR), as the trace records it. */
export type OtherCommand = NonNullable<TraceDocument['serverTrace']>['others'][number];

export interface TraceColumns {
  readonly doc: TraceDocument;
  readonly n: number;
  /** µs since t0, indexed by command. */
  readonly sentUs: Float64Array;
  readonly repliedUs: Float64Array;
  /**
   * Delay-proxy runs only (null otherwise): when the proxy handed command i to Redis and received its
   * reply from Redis, µs since t0 on the client's clock. Non-decreasing like sentUs.
   */
  readonly toServerUs: Float64Array | null;
  readonly fromServerUs: Float64Array | null;
  /** Index into doc.writes / doc.reads of the write that carried command i / the read that completed its reply. */
  readonly writeOf: Uint32Array;
  readonly readOf: Uint32Array;
  /** 1 where command i's reply is an error. */
  readonly isError: Uint8Array;
  readonly errors: number;
  /** Error elements inside a command's array reply, by index (EXEC after a runtime error; model/nested-errors.ts); null when none has any. */
  readonly nestedErrors: ReadonlyMap<number, NestedErrors> | null;
  /**
   * MULTI/EXEC: the queued commands that failed when EXEC ran them (their own reply QUEUED, the error an
   * element of EXEC's array), by index → that error (null: only its place is known); null when none did.
   */
  readonly failedInExec: ReadonlyMap<number, string | null> | null;
  /** µs since t0, indexed by write / read. */
  readonly writeAtUs: Float64Array;
  readonly readAtUs: Float64Array;
  /**
   * Server-traced runs only (null otherwise): when Redis executed command i (MONITOR), on the client's
   * clock within ± clockUncertaintyUs. Non-decreasing (TraceBuilder checks the order).
   */
  readonly serverUs: Float64Array | null;
  /**
   * v3: 0 where Redis never executed command i (refused while queueing, discarded by EXECABORT): MONITOR
   * has no line for it, and serverUs holds the previous execution's time there only to stay sorted.
   * null when every command was executed (or none was traced).
   */
  readonly executed: Uint8Array | null;
  readonly clockUncertaintyUs: number;
  /** strace's calls on the run's socket, sorted by time (stable); null when strace was not used. */
  readonly syscalls: readonly Syscall[] | null;
  readonly syscallAtUs: Float64Array;
  /** Other connections' commands during the run (MONITOR), sorted by time; empty when not traced. */
  readonly others: readonly OtherCommand[];
  readonly otherAtUs: Float64Array;
  /** The latest time in the trace: the last reply (or the last event, for an unfinished trace). */
  readonly endUs: number;
}

const cache = new WeakMap<TraceDocument, TraceColumns>();

export function traceColumns(doc: TraceDocument): TraceColumns {
  const cached = cache.get(doc);
  if (cached) return cached;
  const n = doc.commands.length;
  const sentUs = new Float64Array(n);
  const repliedUs = new Float64Array(n);
  const isError = new Uint8Array(n);
  let errors = 0;
  const viaProxy = doc.proxy !== null && n > 0 && doc.commands[0]!.toServerUs !== undefined;
  const toServerUs = viaProxy ? new Float64Array(n) : null;
  const fromServerUs = viaProxy ? new Float64Array(n) : null;
  for (let i = 0; i < n; i++) {
    const c = doc.commands[i]!;
    sentUs[i] = c.sentUs;
    repliedUs[i] = c.repliedUs;
    if (toServerUs && fromServerUs) {
      toServerUs[i] = c.toServerUs ?? c.sentUs;
      fromServerUs[i] = c.fromServerUs ?? c.repliedUs;
    }
    if ('error' in c) {
      isError[i] = 1;
      errors++;
    }
  }
  let nested: Map<number, NestedErrors> | null = null;
  let failedInExec: Map<number, string | null> | null = null;
  if (doc.run.mode === 'multi') {
    for (let i = 0; i < n; i++) {
      const e = nestedErrors(doc, i);
      if (e) (nested ??= new Map()).set(i, e);
    }
    const failed = failedInTransaction(doc);
    if (failed.size > 0) failedInExec = failed;
  }
  const writeOf = new Uint32Array(n);
  const writeAtUs = new Float64Array(doc.writes.length);
  doc.writes.forEach((w, k) => {
    writeAtUs[k] = w.atUs;
    writeOf.fill(k, w.firstCommand, Math.min(n, w.firstCommand + w.commands));
  });
  const readOf = new Uint32Array(n);
  const readAtUs = new Float64Array(doc.reads.length);
  doc.reads.forEach((r, k) => {
    readAtUs[k] = r.atUs;
    readOf.fill(k, r.firstReply, Math.min(n, r.firstReply + r.replies));
  });
  const server = doc.serverTrace;
  const { serverUs, executed } = executionTimes(doc);
  const syscalls = server?.syscalls ? sortedByTime(server.syscalls.calls) : null;
  const others = server ? sortedByTime(server.others) : [];
  const syscallAtUs = Float64Array.from(syscalls ?? [], (c) => c.atUs);
  const otherAtUs = Float64Array.from(others, (o) => o.atUs);
  const endUs = Math.max(doc.totals.durationUs, n ? repliedUs[n - 1]! : 0, writeAtUs.at(-1) ?? 0, readAtUs.at(-1) ?? 0);
  const columns: TraceColumns = {
    doc, n, sentUs, repliedUs, toServerUs, fromServerUs, writeOf, readOf, isError, errors, nestedErrors: nested, failedInExec, writeAtUs, readAtUs,
    serverUs, executed, clockUncertaintyUs: server?.clock.uncertaintyUs ?? 0, syscalls, syscallAtUs, others, otherAtUs, endUs,
  };
  cache.set(doc, columns);
  return columns;
}

/** MONITOR's execution times, a command never executed holding its predecessor's (the first executed one's, before any). */
function executionTimes(doc: TraceDocument): { serverUs: Float64Array | null; executed: Uint8Array | null } {
  const { commands } = doc;
  if (doc.serverTrace === null) return { serverUs: null, executed: null }; // before the search: it scans every command of an untraced run
  const firstUs = commands.find((c) => c.serverUs !== undefined)?.serverUs;
  if (firstUs === undefined) return { serverUs: null, executed: null };
  const serverUs = new Float64Array(commands.length);
  const executed = new Uint8Array(commands.length);
  let previous = firstUs;
  let all = true;
  commands.forEach((c, i) => {
    if (c.serverUs === undefined) all = false;
    else {
      executed[i] = 1;
      previous = Math.max(previous, c.serverUs);
    }
    serverUs[i] = previous;
  });
  return { serverUs, executed: all ? null : executed };
}

/** Already sorted in every trace Pipescope records; sorted anyway (stably) so binary search holds for any file. */
function sortedByTime<T extends { atUs: number }>(items: readonly T[]): readonly T[] {
  for (let i = 1; i < items.length; i++) if (items[i]!.atUs < items[i - 1]!.atUs) return [...items].sort((a, b) => a.atUs - b.atUs);
  return items;
}
