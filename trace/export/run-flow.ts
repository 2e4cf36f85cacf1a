// A run as the messages that crossed its client socket, in time order: each socket write (Client →
// Redis, carrying the commands it completed) and each received chunk (Redis → Client, completing
// replies), and for a run traced with MONITOR the executions on Redis between them. This is what the
// Mermaid and text-flow exports (mermaid-export.ts, flow-export.ts) print: what went on the wire as
// measured, not one arrow per command — a pipelined write carries many commands, a sequential run has
// one write per command (wire-layout.ts names each position). Long runs are collapsed to their first
// and last messages with an exact account of what was left out. Pure.
import type { CommandRecord, TraceDocument } from '../format/trace-format.ts';
import { wireCommandName } from '../format/wire-layout.ts';
import { formatCount, plural, preciseUs } from './export-words.ts';

/** Where every time of the flow comes from, as the app labels it. */
export const FLOW_TIME_SOURCE = 'client-socket';
export const FLOW_EXEC_SOURCE = 'MONITOR';

/** A socket write (Client → Redis) or a received chunk (Redis → Client). */
export interface FlowMessage {
  kind: 'write' | 'read';
  /** 1-based, per kind: write #k, read #k (the wire view's numbering). */
  number: number;
  /** µs since t0 (client socket). */
  atUs: number;
  bytes: number;
  /** Wire positions completed by it: [first, first + count). */
  first: number;
  count: number;
  /** "10 commands: INCR ×10", "10 replies: 1, 2, … 10". */
  summary: string;
  /** A cluster run: the socket it crossed (an index in cluster.connections); absent on a single Redis. */
  connection?: number;
}

/** Redis executing the commands one write carried (MONITOR). */
export interface FlowExecution {
  kind: 'exec';
  /** µs since t0, on the client's clock (MONITOR via serverTrace.clock), first and last execution of the group. */
  atUs: number;
  toUs: number;
  first: number;
  count: number;
  summary: string;
}

export type FlowEvent = FlowMessage | FlowExecution;

/** The events of a run in time order (writes before reads before executions at the same µs). */
export function flowEvents(doc: TraceDocument): FlowEvent[] {
  const events: FlowEvent[] = [];
  doc.writes.forEach((w, i) => {
    const socket = w.connection === undefined ? {} : { connection: w.connection };
    events.push({ kind: 'write', number: i + 1, atUs: w.atUs, bytes: w.bytes, first: w.firstCommand, count: w.commands, summary: writeSummary(doc, w.firstCommand, w.commands), ...socket });
  });
  doc.reads.forEach((r, i) => {
    const socket = r.connection === undefined ? {} : { connection: r.connection };
    events.push({ kind: 'read', number: i + 1, atUs: r.atUs, bytes: r.bytes, first: r.firstReply, count: r.replies, summary: readSummary(doc, r.firstReply, r.replies, r.connection), ...socket });
  });
  if (doc.run.probes.monitor && doc.serverTrace) events.push(...execEvents(doc));
  const rank = { write: 0, read: 1, exec: 2 } as const;
  return events.sort((a, b) => a.atUs - b.atUs || rank[a.kind] - rank[b.kind]);
}

/** One exec event per write's commands that Redis was seen executing (MONITOR), in wire order. */
function execEvents(doc: TraceDocument): FlowEvent[] {
  const events: FlowEvent[] = [];
  for (const w of doc.writes) {
    const times: number[] = [];
    for (let i = w.firstCommand; i < w.firstCommand + w.commands && i < doc.commands.length; i++) {
      const at = doc.commands[i]!.serverUs;
      if (at !== undefined) times.push(at);
    }
    if (times.length === 0) continue;
    events.push({
      kind: 'exec',
      atUs: Math.min(...times),
      toUs: Math.max(...times),
      first: w.firstCommand,
      count: times.length,
      summary: `executed ${plural(times.length, 'command')}: ${runLengths(names(doc, w.firstCommand, times.length))}`,
    });
  }
  return events;
}

function names(doc: TraceDocument, first: number, count: number): string[] {
  return Array.from({ length: count }, (_, k) => wireCommandName(doc.run, first + k));
}

/** "INCR ×10", "MULTI, INCR ×10, EXEC": equal neighbours folded; more than 6 groups keep the first 4, "…", the last. */
export function runLengths(items: readonly string[]): string {
  const groups: { text: string; times: number }[] = [];
  for (const item of items) {
    const last = groups.at(-1);
    if (last?.text === item) last.times++;
    else groups.push({ text: item, times: 1 });
  }
  const shown = groups.map((g) => (g.times > 1 ? `${g.text} ×${formatCount(g.times)}` : g.text));
  return shown.length > 6 ? [...shown.slice(0, 4), '…', shown.at(-1)!].join(', ') : shown.join(', ');
}

function writeSummary(doc: TraceDocument, first: number, count: number): string {
  if (count === 0) return `part of command #${first + 1} (no command completed)`;
  return `${plural(count, 'command')}: ${runLengths(names(doc, first, count))}`;
}

/**
 * A read's replies: the `count` commands from `first` on, or on a cluster run (`connection` given) that
 * socket's own commands from `first` on, in its order (other sockets' commands lie between them).
 */
function readSummary(doc: TraceDocument, first: number, count: number, connection?: number): string {
  if (count === 0) return `part of reply #${first + 1} (no reply completed)`;
  const answered = connection === undefined
    ? doc.commands.slice(first, first + count)
    : socketCommands(doc.commands, first, count, connection);
  return `${plural(count, 'reply', 'replies')}: ${runLengths(answered.map(replyWords))}`;
}

function socketCommands(commands: readonly CommandRecord[], first: number, count: number, connection: number): CommandRecord[] {
  const found: CommandRecord[] = [];
  for (let i = first; i < commands.length && found.length < count; i++) if (commands[i]!.connection === connection) found.push(commands[i]!);
  return found;
}

/** A reply as the app's table shows it: OK, PONG, 11, (nil), EXEC's "[1,2,…]"; an error as "error: <its text>". */
function replyWords(record: CommandRecord): string {
  if ('error' in record) return `error: ${record.error}`;
  return record.reply === null ? '(nil)' : String(record.reply);
}

/** What a collapsed flow leaves out, counted exactly. */
export interface FlowGap {
  writes: number;
  reads: number;
  execs: number;
  /** Commands completed by the writes left out, and replies by the reads. */
  commands: number;
  replies: number;
  bytesOut: number;
  bytesIn: number;
  /** µs since t0 of the first and last event left out. */
  fromUs: number;
  toUs: number;
}

export interface CollapsedFlow {
  head: FlowEvent[];
  /** null when nothing was left out (then head holds every event and tail is empty). */
  gap: FlowGap | null;
  tail: FlowEvent[];
}

/** Every event when there are at most `max`; else the first `keep` and the last `keep`, and what lies between. */
export function collapseFlow(events: readonly FlowEvent[], max: number, keep: number): CollapsedFlow {
  if (events.length <= max || events.length <= 2 * keep) return { head: [...events], gap: null, tail: [] };
  const left = events.slice(keep, events.length - keep);
  const gap: FlowGap = { writes: 0, reads: 0, execs: 0, commands: 0, replies: 0, bytesOut: 0, bytesIn: 0, fromUs: left[0]!.atUs, toUs: left.at(-1)!.atUs };
  for (const e of left) {
    if (e.kind === 'write') {
      gap.writes++;
      gap.commands += e.count;
      gap.bytesOut += e.bytes;
    } else if (e.kind === 'read') {
      gap.reads++;
      gap.replies += e.count;
      gap.bytesIn += e.bytes;
    } else if (e.kind === 'exec') {
      gap.execs++;
      gap.toUs = Math.max(gap.toUs, e.toUs);
    }
  }
  return { head: events.slice(0, keep), gap, tail: events.slice(events.length - keep) };
}

/** The lines of a gap's account: "1,988 messages left out", each kind with its counts and bytes, and the time span. */
export function gapLines(gap: FlowGap): string[] {
  return [
    `${plural(gap.writes + gap.reads, 'message')} left out`,
    `${plural(gap.writes, 'write')} (${plural(gap.commands, 'command')}, ${formatCount(gap.bytesOut)} B)`,
    `${plural(gap.reads, 'read')} (${plural(gap.replies, 'reply', 'replies')}, ${formatCount(gap.bytesIn)} B)`,
    ...(gap.execs > 0 ? [`${plural(gap.execs, 'group')} of executions (${FLOW_EXEC_SOURCE})`] : []),
    `from ${preciseUs(gap.fromUs)} to ${preciseUs(gap.toUs)} since t0 (${FLOW_TIME_SOURCE})`,
  ];
}

/** "1,988 messages left out: 994 writes (994 commands, 55,664 B), 994 reads (…), from 1.3 ms to 100.65 ms since t0 (client-socket)". */
export function gapText(gap: FlowGap): string {
  const [head, ...rest] = gapLines(gap);
  return `${head}: ${rest.join(', ')}`;
}

