// The verdict lines of one run, computed from its trace alone, each naming who measured it:
// what went on the wire ("10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC"); round trips,
// client writes, TCP data segments and Redis reads; atomic or not (from MONITOR when it was on, otherwise
// what Redis guarantees, said as "could"); rolled back or not (from the error replies and the keys read
// after the run); and for GET-COMPUTE-SET how many round trips its dependent steps cost. Pure, unit-tested.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { operationAt, wireCommandName, type WireRun } from '../../../trace/format/wire-layout.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { commandKey } from './command-text.ts';
import { formatCount, plural } from './number-format.ts';

export type VerdictKind = 'wire' | 'trips' | 'atomic' | 'rollback' | 'dependent';

export interface VerdictPart {
  text: string;
  /** Who measured it: 'client socket', 'kernel (ss)', 'Redis INFO', 'MONITOR', 'keys after the run', …; null for what the run asked for. */
  source: string | null;
}

export interface VerdictLine {
  kind: VerdictKind;
  parts: VerdictPart[];
  /** good: what the lesson expects to see shown to hold; bad: a failure, a rollback that did not happen. */
  tone: 'plain' | 'good' | 'bad';
}

/** "MULTI, 10 × INCR, EXEC": the wire commands of a run, runs of one name folded. */
export function wireSequence(run: WireRun): string {
  const ops = formatCount(run.operations);
  const step = run.command === 'GET-COMPUTE-SET' ? `${ops} × (GET, SET)` : `${ops} × ${run.command}`;
  const work: Record<WireRun['mode'], string> = {
    sequential: step, pipeline: step, chunked: step, auto: step,
    multi: `MULTI, ${step}, EXEC`,
    eval: 'one EVAL',
    evalsha: `${ops} × EVALSHA`,
    multikey: `one ${wireCommandName(run, 0)}`,
  };
  const redirects = run.redirectCommands;
  const followed = redirects
    ? `${redirects.resent ? `, ${formatCount(redirects.resent)} sent again after a redirect` : ''}${redirects.asking.length ? `, ${formatCount(redirects.asking.length)} × ASKING` : ''}`
    : '';
  return `${work[run.mode]}${followed}${run.probes.heldConnection ? ', PING (held-connection probe)' : ''}`;
}

/** "10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC" ("1 INCR as …" for one). */
export function wireLine(doc: TraceDocument): string {
  const { run } = doc;
  return `${plural(run.operations, run.command)} as ${plural(run.n, 'command')} on the wire: ${wireSequence(run)}`;
}

/** Round trips, client writes, TCP data segments out (when ss gave them), Redis reads: each with its source. */
export function tripsParts(doc: TraceDocument): VerdictPart[] {
  const trips = roundTripsWaited(doc);
  const parts: VerdictPart[] = [
    { text: plural(trips, 'round trip'), source: 'client socket' },
    { text: plural(doc.counts.client.writes, 'client write'), source: 'client socket' },
  ];
  const k = doc.kernelTcp;
  if (k && !('unavailable' in k)) parts.push({ text: plural(k.dataSegmentsOut, 'TCP data segment') + ' out', source: 'kernel (ss)' });
  const shared = doc.counts.server.exclusive ? '' : ', other clients included';
  parts.push({ text: plural(doc.counts.server.reads, 'Redis read'), source: `Redis INFO${shared}` });
  return parts;
}

/**
 * Other clients' commands Redis ran between the run's first and last execution (MONITOR); null without MONITOR
 * times. For MULTI/EXEC the window is the queued commands' executions: MONITOR shows MULTI when it arrives and
 * the queued commands when EXEC runs them, so a client served while the queue was still being sent ran
 * before the transaction, not inside it.
 */
export function othersInside(doc: TraceDocument): number | null {
  const server = doc.serverTrace;
  if (!server || !doc.run.probes.monitor || doc.commands.length === 0) return null;
  // MULTI is wire command 0, EXEC the last work command (before the held-connection PING when there is one).
  const work = doc.run.mode === 'multi' ? doc.commands.slice(1, doc.commands.length - (doc.run.probes.heldConnection ? 2 : 1)) : doc.commands;
  const times = work.map((c) => c.serverUs).filter((t): t is number => t !== undefined);
  if (times.length === 0) return null;
  const first = Math.min(...times);
  const last = Math.max(...times);
  // Commands a script runs show in MONITOR as coming from "lua": they are the run's own work; Pipescope's
  // own connections (control, memory sampler: its INFO every 10 ms) are not other clients either.
  return server.others.filter((o) => !/lua|\(Pipescope /i.test(o.source) && o.atUs > first && o.atUs < last).length;
}

function atomicLine(doc: TraceDocument): VerdictLine | null {
  const { run } = doc;
  const ops = `${formatCount(run.operations)} ${run.command}${run.operations === 1 ? '' : 's'}`;
  const inside = othersInside(doc);
  if (run.mode === 'multi' || run.mode === 'eval' || run.mode === 'multikey') {
    if (execAborted(doc)) return null; // nothing ran: the rollback line says so
    const what = run.mode === 'multi' ? 'a transaction' : run.mode === 'eval' ? 'one script' : 'one command';
    if (inside === null) return { kind: 'atomic', tone: 'good', parts: [{ text: `atomic: Redis runs the ${ops} as one block (${what}); no other client can run in between`, source: 'Redis guarantees it; MONITOR off, not measured' }] };
    if (inside === 0) return { kind: 'atomic', tone: 'good', parts: [{ text: `atomic: Redis ran the ${ops} as one block — no other client's command between its first and last execution`, source: 'MONITOR' }] };
    return { kind: 'atomic', tone: 'bad', parts: [{ text: `${plural(inside, 'other client command')} ran between its first and last execution`, source: 'MONITOR' }] };
  }
  if (run.operations < 2 && run.mode !== 'evalsha') return null;
  if (inside === null) return { kind: 'atomic', tone: 'plain', parts: [{ text: 'not atomic: other clients could run commands in between', source: 'MONITOR off, not measured' }] };
  if (inside === 0) return { kind: 'atomic', tone: 'plain', parts: [{ text: 'not atomic: no other client ran in between this time, but one could', source: 'MONITOR' }] };
  return { kind: 'atomic', tone: 'bad', parts: [{ text: `not atomic: ${plural(inside, 'other client command')} ran in between`, source: 'MONITOR' }] };
}

function execAborted(doc: TraceDocument): boolean {
  if (doc.run.mode !== 'multi') return false;
  // EXEC is the last work command: before the held-connection PING when there is one.
  const last = doc.commands[doc.commands.length - (doc.run.probes.heldConnection ? 2 : 1)];
  return last !== undefined && 'error' in last && /^EXECABORT/i.test(last.error);
}

/** "5–9", "5", "5 and 6". */
function range(from: number, to: number): string {
  return from === to ? String(from) : to === from + 1 ? `${from} and ${to}` : `${from}–${to}`;
}

/**
 * The wire commands whose error reply was a cluster redirect the client followed (MOVED, ASK, TRYAGAIN sent
 * again elsewhere): the command it sent in its place holds the operation's answer, so they failed nothing.
 */
function followedRedirects(doc: TraceDocument): Set<number> {
  return new Set((doc.cluster?.redirects ?? []).filter((r) => r.followedBy !== undefined).map((r) => r.command));
}

/** The error replies that are the run's answers: every one but a followed redirect's. */
function errorReplies(doc: TraceDocument): number {
  const followed = followedRedirects(doc);
  return doc.commands.filter((c, i) => 'error' in c && !followed.has(i)).length;
}

/** The operations whose reply was an error, and for a transaction whose EXEC reply carries one, the planted one. */
export function failedOperations(doc: TraceDocument): number[] {
  const failed = new Set<number>();
  const followed = followedRedirects(doc);
  doc.commands.forEach((c, i) => {
    const op = operationAt(doc.run, i);
    if ('error' in c && op !== null && !followed.has(i)) failed.add(op);
    if (!('error' in c) && typeof c.reply === 'string' && /ERR/.test(c.reply) && doc.run.injectedError) failed.add(doc.run.injectedError.operation);
  });
  if (failed.size === 0 && doc.run.injectedError && doc.commands.some((c) => 'error' in c)) failed.add(doc.run.injectedError.operation);
  return [...failed].sort((a, b) => a - b);
}

function valuesText(values: (string | null)[]): string {
  const distinct = [...new Set(values.map((v) => (v === null ? '(nil)' : v)))];
  return distinct.length <= 3 ? distinct.join(', ') : `${distinct.slice(0, 3).join(', ')}, …`;
}

function rollbackLine(doc: TraceDocument): VerdictLine | null {
  const { run, keysAfter } = doc;
  const errors = errorReplies(doc);
  if (errors === 0 && run.injectedError === null) return null;
  if (execAborted(doc)) {
    const after = keysAfter ? keysAfter.keys.filter((k) => k.value !== null) : null;
    const text = after === null
      ? 'Redis refused the whole transaction (EXECABORT): no operation ran'
      : after.length === 0
        ? 'Redis refused the whole transaction (EXECABORT): no key changed'
        : `Redis refused the whole transaction (EXECABORT), yet ${plural(after.length, 'key')} held a value afterwards`;
    return { kind: 'rollback', tone: 'good', parts: [{ text, source: keysAfter ? 'EXEC reply · keys read after the run' : 'EXEC reply' }] };
  }
  const failed = failedOperations(doc);
  if (failed.length === 0) return { kind: 'rollback', tone: 'plain', parts: [{ text: `${plural(errors, 'error reply', 'error replies')}`, source: 'client socket' }] };
  const k = failed[0]!;
  // Operations are numbered from 1 on screen (the trace and the spec count from 0).
  const head = `operation ${k + 1} failed`;
  const lastOp = run.operations - 1;
  if (k >= lastOp || run.mode === 'eval') {
    const why = run.mode === 'eval' ? '; a Lua error stops the script there, the operations before it stay applied' : '; no operation came after it';
    return { kind: 'rollback', tone: 'bad', parts: [{ text: `${head}${why}`, source: 'replies' }] };
  }
  const later = range(k + 2, lastOp + 1);
  if (!keysAfter) return { kind: 'rollback', tone: 'bad', parts: [{ text: `${head}; operations ${later} replied normally — no rollback`, source: 'replies (keys not read after the run)' }] };
  const byKey = new Map(keysAfter.keys.map((e) => [e.key, e.value]));
  const values: (string | null)[] = [];
  for (let op = k + 1; op <= lastOp; op++) {
    const key = commandKey(run, op);
    if (byKey.has(key)) values.push(byKey.get(key)!);
  }
  if (values.length === 0) return { kind: 'rollback', tone: 'bad', parts: [{ text: `${head}; operations ${later} replied normally — no rollback`, source: 'replies' }] };
  const ran = values.every((v) => v !== null);
  const text = ran
    ? `${head}; operations ${later} still ran: their keys read ${valuesText(values)} afterwards — no rollback`
    : `${head}; operations ${later}: their keys read ${valuesText(values)} afterwards`;
  return { kind: 'rollback', tone: 'bad', parts: [{ text, source: 'keys read after the run' }] };
}

function dependentLine(doc: TraceDocument): VerdictLine | null {
  const { run } = doc;
  if (run.command !== 'GET-COMPUTE-SET') return null;
  const trips = roundTripsWaited(doc);
  const n = formatCount(run.operations);
  const text = run.mode === 'eval'
    ? `read, compute, write on Redis: ${plural(trips, 'round trip')} for all ${n} steps`
    : `2 round trips per step: ${n} × 2 = ${formatCount(run.operations * 2)} round trips (measured ${formatCount(trips)})`;
  return { kind: 'dependent', tone: 'plain', parts: [{ text, source: 'client socket' }] };
}

/** Every verdict line of a run, in reading order. */
export function runVerdict(doc: TraceDocument): VerdictLine[] {
  const lines: (VerdictLine | null)[] = [
    { kind: 'wire', tone: 'plain', parts: [{ text: wireLine(doc), source: null }] },
    { kind: 'trips', tone: 'plain', parts: tripsParts(doc) },
    dependentLine(doc),
    atomicLine(doc),
    rollbackLine(doc),
  ];
  return lines.filter((l): l is VerdictLine => l !== null);
}
