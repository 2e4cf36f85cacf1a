// The verdict lines of an observed connection, measured from its stream at the proxy: how many commands
// went in how many chunks, how many times the client waited for every reply before writing again (its
// round trips), whether commands were wrapped in MULTI/EXEC or sent as scripts, the reply sizes, the
// frames that answered no command, who the client said it was, and what the proxy's hop cost. Each line
// names its source. Pure; the page and the CLI print the same lines.
import { roundTripsWaited } from './round-trips.ts';
import type { TraceDocument } from '../format/trace-format.ts';

export interface ObservedVerdict {
  kind: 'wire' | 'trips' | 'transaction' | 'replies' | 'pushes' | 'client' | 'hop' | 'kernel' | 'monitor' | 'notes';
  text: string;
  source: string;
}

export interface Transaction {
  /** Index of MULTI and of the EXEC or DISCARD that ended it (null: still open). */
  multi: number;
  end: number | null;
  ended: 'EXEC' | 'DISCARD' | null;
}

/** The command's name as sent, upper-cased: "SET", "CLIENT", "MULTI". */
export function observedName(text: string): string {
  const space = text.indexOf(' ');
  return (space === -1 ? text : text.slice(0, space)).toUpperCase();
}

/** The MULTI … EXEC (or DISCARD) blocks of a connection, in order. */
export function transactionsOf(commands: readonly string[]): Transaction[] {
  const blocks: Transaction[] = [];
  let open: Transaction | null = null;
  commands.forEach((text, i) => {
    const name = observedName(text);
    if (name === 'MULTI' && !open) blocks.push((open = { multi: i, end: null, ended: null }));
    else if ((name === 'EXEC' || name === 'DISCARD') && open) {
      open.end = i;
      open.ended = name;
      open = null;
    }
  });
  return blocks;
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The names of a run of commands, runs of one name folded: "MULTI, 10 × INCRBY, EXEC". */
export function foldedNames(commands: readonly string[], from = 0, to = commands.length, most = 6): string {
  const parts: string[] = [];
  let i = from;
  while (i < to) {
    const name = observedName(commands[i]!);
    let j = i + 1;
    while (j < to && observedName(commands[j]!) === name) j++;
    parts.push(j - i > 1 ? `${(j - i).toLocaleString('en-US')} × ${name}` : name);
    i = j;
  }
  return parts.length > most ? `${parts.slice(0, most - 1).join(', ')}, … ${parts.at(-1)}` : parts.join(', ');
}

export function observedVerdicts(doc: TraceDocument): ObservedVerdict[] {
  const observed = doc.run.observed;
  if (!observed) return [];
  const lines: ObservedVerdict[] = [];
  const at = 'observing proxy';
  const chunks = doc.writes.filter((w) => w.commands > 0).length;
  lines.push({
    kind: 'wire',
    text: `${count(doc.run.n, 'command')} in ${count(doc.writes.length, 'chunk')} from the client (${count(chunks, 'chunk')} completing commands): ${foldedNames(observed.commands)}`,
    source: at,
  });
  const trips = roundTripsWaited(doc);
  const most = Math.max(0, ...doc.writes.map((w) => w.commands));
  lines.push({
    kind: 'trips',
    text: `${count(trips, 'round trip')}: ${trips === doc.commands.length && doc.commands.length > 1 ? 'the client waited for each reply before sending the next command (no pipelining)' : trips < doc.commands.length ? `the client waited for every reply before writing again ${count(trips, 'time')}; at most ${count(most, 'command')} in one chunk` : 'one command, one reply'}`,
    source: at,
  });
  const blocks = transactionsOf(observed.commands);
  const scripts = observed.commands.filter((c) => /^(EVAL|EVALSHA|EVAL_RO|EVALSHA_RO|FCALL|FCALL_RO)\b/i.test(c)).length;
  if (blocks.length > 0) {
    const first = blocks[0]!;
    const inside = first.end === null ? observed.commands.length - first.multi - 1 : first.end - first.multi - 1;
    const oneWrite = first.end !== null && doc.writes.some((w) => w.firstCommand <= first.multi && w.firstCommand + w.commands > first.end!);
    lines.push({
      kind: 'transaction',
      text: `wrapped in MULTI/EXEC: ${count(blocks.length, 'transaction')}; the first wraps ${count(inside, 'command')} (${foldedNames(observed.commands, first.multi, (first.end ?? observed.commands.length - 1) + 1)})` +
        `${first.ended === 'DISCARD' ? ', discarded' : first.end === null ? ', not ended yet' : oneWrite ? ', MULTI to EXEC in one chunk' : ''}`,
      source: at,
    });
  } else {
    lines.push({ kind: 'transaction', text: 'no MULTI/EXEC: the commands were not wrapped in a transaction', source: at });
  }
  if (scripts > 0) lines.push({ kind: 'transaction', text: `${count(scripts, 'script call')} (EVAL, EVALSHA or FCALL): each runs as one block on Redis`, source: at });
  const sizes = observed.replyBytes;
  if (sizes.length > 0) {
    const total = sizes.reduce((sum, b) => sum + b, 0);
    const sorted = [...sizes].sort((a, b) => a - b);
    lines.push({
      kind: 'replies',
      text: `${count(sizes.length, 'reply', 'replies')}, ${bytesText(total)} in all: median ${bytesText(sorted[sorted.length >> 1]!)}, largest ${bytesText(sorted.at(-1)!)}; ` +
        `${count(doc.commands.filter((c) => 'error' in c).length, 'error')}`,
      source: at,
    });
  }
  if (observed.pushCount > 0) {
    lines.push({ kind: 'pushes', text: `${count(observed.pushCount, 'frame')} from Redis answered no command (RESP3 push, pub/sub message, MONITOR line)`, source: at });
  }
  const lib = observed.libName ? `${observed.libName}${observed.libVersion ? ` ${observed.libVersion}` : ''}` : null;
  lines.push({
    kind: 'client',
    text: `${observed.clientAddress}: ${lib ? `library ${lib}` : 'the library did not say its name (no CLIENT SETINFO)'}${observed.clientName ? `, connection name ${observed.clientName}` : ''}, RESP${observed.protocol}`,
    source: 'what the client sent',
  });
  const hop = observed.hop;
  if (hop) {
    lines.push({
      kind: 'hop',
      text: `the observing proxy's hop adds ${hop.addedUs.toFixed(1)} µs per round trip [95 % ${hop.addedLowUs.toFixed(1)}–${hop.addedHighUs.toFixed(1)}] ` +
        `(PING ${hop.throughMedianUs.toFixed(1)} µs through it, ${hop.aroundMedianUs.toFixed(1)} µs around it, median of ${hop.pairs.toLocaleString('en-US')} pairs)`,
      source: 'side by side, this session',
    });
  } else {
    lines.push({ kind: 'hop', text: "the observing proxy's hop was not measured for this session", source: 'side by side' });
  }
  if (doc.rtt.addedMs > 0 || doc.rtt.jitterMs > 0) {
    lines.push({ kind: 'hop', text: `added delay: ${doc.rtt.addedMs} ms RTT${doc.rtt.jitterMs ? ` ± ${doc.rtt.jitterMs} ms` : ''}, half each way, by the proxy`, source: 'observing proxy' });
  }
  const k = doc.kernelTcp;
  if (k && !('unavailable' in k)) {
    lines.push({ kind: 'kernel', text: `the client sent ${count(k.segmentsIn, 'TCP segment')} to the proxy (${k.dataSegmentsIn.toLocaleString('en-US')} with data), got ${k.segmentsOut.toLocaleString('en-US')}`, source: 'kernel (ss), accepted socket' });
  }
  if (doc.run.probes.monitor && doc.serverTrace) {
    const executed = doc.commands.filter((c) => c.serverUs !== undefined).length;
    const first = blocks.find((b) => b.ended === 'EXEC');
    const span = first ? doc.commands[first.end!]!.serverUs !== undefined && doc.commands[first.multi + 1]?.serverUs !== undefined
      ? doc.commands[first.end!]!.serverUs! - doc.commands[first.multi + 1]!.serverUs! : null : null;
    lines.push({
      kind: 'monitor',
      text: `Redis executed ${executed.toLocaleString('en-US')} of the ${count(doc.commands.length, 'command')} (the rest it logged no line for: AUTH, refused ones)` +
        (span !== null ? `; the first transaction's commands ran within ${Math.round(span).toLocaleString('en-US')} µs, at EXEC` : ''),
      source: `MONITOR, clock ±${Math.round(doc.serverTrace.clock.uncertaintyUs)} µs`,
    });
  }
  for (const note of observed.notes) lines.push({ kind: 'notes', text: note, source: at });
  return lines;
}
