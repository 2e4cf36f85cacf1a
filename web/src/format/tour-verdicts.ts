// The guided tour's verdicts: for each step, sentences computed from the traces (or the sweep)
// the step produced, live or recorded — never a number written in advance. Each function returns null
// when what it is given is not that step's result (a mode missing, a probe off), so the tour shows no
// verdict rather than a wrong one. Pure, unit-tested on the tour's own recordings (public/tour/).
import type { SweepDocument } from '../../../trace/format/sweep-format.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { operationAt } from '../../../trace/format/wire-layout.ts';
import { kernelCounts } from '../model/kernel-counts.ts';
import { memoryPeak } from '../model/memory-series.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { clusterRoundTrips } from '../../../trace/derive/cluster-round-trips.ts';
import { isCertain } from '../../../trace/derive/paired-verdict.ts';
import { medianRepeat } from '../../../trace/derive/repeat-stats.ts';
import { compareRepeats } from '../../../trace/derive/run-pairs.ts';
import { verdictClause } from '../../../trace/derive/verdict-words.ts';
import { seriesOfDocument } from '../model/sweep-series.ts';
import { formatBytes, formatCount, formatRate, formatRatio, formatUs, plural } from './number-format.ts';
import { depthVerdict, lastStepSentence } from './sweep-text.ts';
import { modePhrase } from './run-label.ts';
import { runVerdict } from './run-verdict.ts';

/** What a tour step produced: the traces of its run request, or its sweep. */
export interface TourResult {
  traces: readonly TraceDocument[];
  sweep: SweepDocument | null;
}

/** A step's verdict: one headline ("Measured: …") and the lines that back it, each naming who measured it. */
export interface TourVerdict {
  headline: string;
  lines: string[];
}

export type TourVerdictFn = (result: TourResult) => TourVerdict | null;

const ofMode = (traces: readonly TraceDocument[], mode: RunMode) => traces.filter((d) => d.run.mode === mode);
/** A mode's run as the step shows it: its median repeat, when the step ran several. */
const byMode = (traces: readonly TraceDocument[], mode: RunMode) => medianRepeat(ofMode(traces, mode));

/**
 * Who was faster, by the one verdict rule (trace/derive/paired-verdict.ts) over the step's rounds: the
 * headline's short form ("the pipeline 9.8× faster [95 % 8.1–12×]", or the two times when no verdict
 * holds) and the line that says it in full.
 */
function timeVerdict(traces: readonly TraceDocument[], a: RunMode, b: RunMode, nameA: string, nameB: string): { short: string; line: string } {
  const verdict = compareRepeats(ofMode(traces, a), ofMode(traces, b));
  const [docA, docB] = [byMode(traces, a)!, byMode(traces, b)!];
  const times = `${formatUs(docA.totals.durationUs)} vs ${formatUs(docB.totals.durationUs)}`;
  const short = isCertain(verdict) ? `${verdictClause(verdict, nameA, nameB).replace(/, faster in .*$/, '')}` : times;
  return { short, line: `Time (client socket, t0 → last reply): ${verdictClause(verdict, nameA, nameB)}.` };
}

/** "3.94 ops/s" below 100, "1,234 ops/s" above: a rate near the 4 ops/s ceiling keeps its decimals. */
export function rateText(opsPerSec: number): string {
  return opsPerSec < 100 ? `${formatRatio(opsPerSec)} ops/s` : formatRate(opsPerSec);
}

/** Commands written only after the previous command's reply had arrived (the ping-pong order). */
export function waitedForPrevious(doc: TraceDocument): number {
  let count = 0;
  doc.commands.forEach((c, i) => {
    const previous = doc.commands[i - 1];
    if (previous && c.sentUs >= previous.repliedUs) count++;
  });
  return count;
}

/** Commands written before the first reply arrived (all of them, for one pipeline). */
export function writtenBeforeFirstReply(doc: TraceDocument): number {
  const first = doc.commands[0];
  return first ? doc.commands.filter((c) => c.sentUs <= first.repliedUs).length : 0;
}

/** Step 1: ping-pong vs pipelined order. */
export const pingPongVerdict: TourVerdictFn = ({ traces }) => {
  const seq = byMode(traces, 'sequential');
  const pipe = byMode(traces, 'pipeline');
  if (!seq || !pipe) return null;
  const n = seq.run.n;
  const time = timeVerdict(traces, 'sequential', 'pipeline', 'sequential', 'the pipeline');
  return {
    headline: `Measured: ${plural(roundTripsWaited(seq), 'round trip')} vs ${formatCount(roundTripsWaited(pipe))}; ${time.short}`,
    lines: [
      `Sequential: ${formatCount(waitedForPrevious(seq) + 1)} of ${formatCount(n)} ${seq.run.command}s were written only after the previous reply (the first had none to wait for) — client socket.`,
      `Pipeline: ${formatCount(writtenBeforeFirstReply(pipe))} of ${formatCount(pipe.run.n)} were written before the first reply came back — client socket.`,
      time.line,
    ],
  };
};

/** Step 2: at an added RTT, a sequential client cannot beat 1000 / RTT operations per second. */
export const rttVerdict: TourVerdictFn = ({ traces }) => {
  const seq = byMode(traces, 'sequential');
  const pipe = byMode(traces, 'pipeline');
  if (!seq || !pipe || seq.rtt.addedMs <= 0) return null;
  const rttMs = seq.rtt.addedMs;
  const ceiling = 1000 / rttMs;
  return {
    headline: `Measured: sequential ${rateText(seq.totals.opsPerSec)} (at most ${formatRatio(ceiling)} at ${formatCount(rttMs)} ms RTT); one pipeline ${rateText(pipe.totals.opsPerSec)}`,
    lines: [
      `Sequential: ${plural(roundTripsWaited(seq), 'round trip')}, ${formatUs(seq.totals.durationUs)}; one pipeline: ${plural(roundTripsWaited(pipe), 'round trip')}, ${formatUs(pipe.totals.durationUs)} — client socket.`,
      `The ${formatCount(rttMs)} ms is added by Pipescope's TCP delay proxy between the client and Redis (both on this machine): 1000 ms / ${formatCount(rttMs)} ms = ${formatRatio(ceiling)} round trips per second at most.`,
    ],
  };
};

interface PerCommand {
  writes: number;
  redisReads: number;
  readsSource: string;
  segments: number | null;
  redisWrites: number | null;
}

function perCommand(doc: TraceDocument): PerCommand {
  const n = doc.run.operations;
  const kernel = kernelCounts(doc);
  const k = doc.kernelTcp;
  return {
    writes: doc.counts.client.writes / n,
    redisReads: (kernel ? kernel.reads : doc.counts.server.reads) / n,
    readsSource: kernel ? 'read() calls, strace' : 'read events, Redis INFO',
    segments: k && !('unavailable' in k) ? k.dataSegmentsOut / n : null,
    redisWrites: kernel ? kernel.writes / n : null,
  };
}

function perCommandLine(name: string, doc: TraceDocument): string {
  const p = perCommand(doc);
  const parts = [
    `${formatRatio(p.writes)} client write (client socket)`,
    `${formatRatio(p.redisReads)} Redis read (${p.readsSource})`,
    ...(p.redisWrites === null ? [] : [`${formatRatio(p.redisWrites)} Redis write (strace)`]),
    ...(p.segments === null ? [] : [`${formatRatio(p.segments)} TCP data segment out (kernel, ss)`]),
  ];
  return `${name}, per ${doc.run.command}: ${parts.join(', ')}.`;
}

/** Step 3: system calls and TCP segments per command. */
export const syscallsVerdict: TourVerdictFn = ({ traces }) => {
  const seq = byMode(traces, 'sequential');
  const pipe = byMode(traces, 'pipeline');
  if (!seq || !pipe) return null;
  const a = perCommand(seq);
  const b = perCommand(pipe);
  return {
    headline: `Measured per command: ${formatRatio(a.redisReads)} Redis read vs ${formatRatio(b.redisReads)}; ${formatRatio(a.writes)} client write vs ${formatRatio(b.writes)}`,
    lines: [perCommandLine('Sequential', seq), perCommandLine('Pipeline', pipe)],
  };
};

/** Depths whose throughput stays within this share of the peak count as the plateau. */
export const PLATEAU_SHARE = 0.75;

/** Step 4: throughput against depth rises, then flattens. Every ratio by the one verdict rule (sweep-text.ts depthVerdict). */
export const sweepVerdict: TourVerdictFn = ({ sweep }) => {
  if (!sweep) return null;
  const points = seriesOfDocument(sweep).ours.filter((p) => p.spread.median > 0);
  const base = points[0];
  if (!base || points.length < 3) return null;
  const peak = points.reduce((best, p) => (p.spread.median > best.spread.median ? p : best), base);
  const floor = peak.spread.median * PLATEAU_SHARE;
  // The plateau: the shallowest depth from which every deeper point stays within PLATEAU_SHARE of the peak.
  let from = points.length - 1;
  while (from > 0 && points[from - 1]!.spread.median >= floor) from--;
  const plateau = points[from]!;
  const last = points.at(-1)!;
  const after = points.filter((p) => p.depth > peak.depth).map((p) => p.spread.median);
  const tail =
    last.spread.median < floor
      ? `The deepest point, ${formatCount(last.depth)}, fell to ${formatRate(last.spread.median)}: below ${Math.round(PLATEAU_SHARE * 100)}% of the peak (noise on a shared machine, or buffers).`
      : from <= points.length - 2
        ? `From depth ${formatCount(plateau.depth)} on, every point stayed within ${Math.round((1 - PLATEAU_SHARE) * 100)}% of the peak: the curve flattens.`
        : after.length === 0
          // The deepest depth has the highest median and the one before is below the plateau: no flat part yet.
          ? `The deepest depth, ${formatCount(last.depth)}, had the highest median: the curve had not flattened yet. ${lastStepSentence(points.at(-2)!, last)}`
          : `Beyond the peak the points scattered between ${formatRate(Math.min(...after))} and ${formatRate(Math.max(...after))}: no clean plateau this time (a shared machine is noisy; run it again).`;
  const rise = depthVerdict(base, peak);
  const interval = rise.interval ? ` [95 % ${formatRatio(rise.interval.lo)}–${formatRatio(rise.interval.hi)}×]` : '';
  const lines = [
    `Throughput rose from ${formatRate(base.spread.median)} at depth ${formatCount(base.depth)} to ${formatRate(peak.spread.median)} at depth ${formatCount(peak.depth)} ` +
      `(medians of ${plural(rise.pairs, 'repeat')}, client socket${rise.interval ? '; the factor is the median of the per-round ratios' : `; ${rise.pairs === 1 ? 'one repeat is' : `${rise.pairs} repeats are`} too few for a 95 % interval`}).`,
    tail,
  ];
  const factor = rise.outcome === 'within-noise' ? 'no more than noise above' : `${formatRatio(rise.ratio)}×${interval}`;
  return { headline: `Measured: ${factor} the depth-${formatCount(base.depth)} throughput at depth ${formatCount(peak.depth)}`, lines };
};

/** Step 5: one pipeline's replies queue on Redis; chunks bound the queue. */
export const memoryVerdict: TourVerdictFn = ({ traces }) => {
  const pipe = byMode(traces, 'pipeline');
  const chunked = byMode(traces, 'chunked');
  if (!pipe?.memory || !chunked?.memory) return null;
  const peak = (d: TraceDocument, key: 'totMem' | 'heapUsed') => memoryPeak(d.memory!, key)?.bytes ?? null;
  const a = peak(pipe, 'totMem');
  const b = peak(chunked, 'totMem');
  if (a === null || b === null) return null;
  const chunks = modePhrase('chunked', chunked.run.chunk);
  const ha = peak(pipe, 'heapUsed');
  const hb = peak(chunked, 'heapUsed');
  return {
    headline: `Measured: Redis held up to ${formatBytes(a)} for the connection with one pipeline, ${formatBytes(b)} in ${chunks}`,
    lines: [
      `Peak of the run connection's memory on Redis (CLIENT LIST tot-mem, sampled every ${formatCount(pipe.memory.intervalMs)} ms): ${formatBytes(a)} vs ${formatBytes(b)} — ${formatRatio(a / Math.max(1, b))}×.`,
      `Time: one pipeline ${formatUs(pipe.totals.durationUs)}, ${chunks} ${formatUs(chunked.totals.durationUs)} (client socket)${ha !== null && hb !== null ? `; client heap peak ${formatBytes(ha)} vs ${formatBytes(hb)} (Node)` : ''}.`,
      timeVerdict(traces, 'pipeline', 'chunked', 'the pipeline', 'the chunks').line,
    ],
  };
};

/**
 * Other clients' commands Redis ran between the first and the last of the run's operations (MONITOR),
 * MULTI and EXEC left out: MONITOR shows MULTI when it arrives, the queued commands when EXEC runs them.
 * null without MONITOR times.
 */
export function othersBetweenOperations(doc: TraceDocument): number | null {
  const server = doc.serverTrace;
  if (!server || !doc.run.probes.monitor) return null;
  const times = doc.commands.flatMap((c, i) => (operationAt(doc.run, i) !== null && c.serverUs !== undefined ? [c.serverUs] : []));
  if (times.length < 2) return null;
  const first = Math.min(...times);
  const last = Math.max(...times);
  return server.others.filter((o) => !/lua|\(Pipescope /i.test(o.source) && o.atUs > first && o.atUs < last).length;
}

/** Step 6: a neighbour's commands run inside a pipeline, never inside MULTI/EXEC. */
export const atomicityVerdict: TourVerdictFn = ({ traces }) => {
  const pipe = byMode(traces, 'pipeline');
  const multi = byMode(traces, 'multi');
  if (!pipe || !multi || !pipe.neighbor || !multi.neighbor) return null;
  const a = othersBetweenOperations(pipe);
  const b = othersBetweenOperations(multi);
  if (a === null || b === null) return null;
  const ops = `${formatCount(pipe.run.operations)} ${pipe.run.command}s`;
  return {
    headline: `Measured: ${plural(a, 'neighbour command')} ran inside the pipeline, ${formatCount(b)} inside MULTI/EXEC`,
    lines: [
      `A neighbour client sent ${formatCount(pipe.neighbor.ratePerSec)} ${pipe.neighbor.command}s per second on its own connection throughout.`,
      a > 0
        ? `Pipeline: Redis ran ${plural(a, 'of its commands', 'of its commands')} between the first and the last of the ${ops} — not atomic (MONITOR).`
        : `Pipeline: none of its commands landed between the ${ops} this time, but nothing stops one (MONITOR); run the step again.`,
      `MULTI/EXEC: ${b === 0 ? 'none' : formatCount(b)} between the first and the last of its ${ops} — ${b === 0 ? 'one block' : 'not one block'} (MONITOR).`,
    ],
  };
};

/** Step 7: an error inside a pipeline or a transaction undoes nothing. */
export const rollbackVerdict: TourVerdictFn = ({ traces }) => {
  const pipe = byMode(traces, 'pipeline');
  const multi = byMode(traces, 'multi');
  const planted = pipe?.run.injectedError ?? multi?.run.injectedError;
  if (!pipe || !multi || !planted) return null;
  const rollback = (d: TraceDocument) => runVerdict(d).find((l) => l.kind === 'rollback');
  const line = (name: string, d: TraceDocument) => {
    const found = rollback(d);
    return found ? `${name}: ${found.parts.map((p) => (p.source ? `${p.text} (${p.source})` : p.text)).join('; ')}.` : `${name}: no error reply.`;
  };
  const ranAfter = (d: TraceDocument) => (rollback(d)?.parts.some((p) => /no rollback/.test(p.text)) ?? false);
  const both = ranAfter(pipe) && ranAfter(multi);
  return {
    // planted.operation counts from 0; the screen counts from 1.
    headline: `Measured: operation ${formatCount(planted.operation + 1)} failed; ${both ? 'the operations after it still ran in both — no rollback' : 'see each mode below'}`,
    lines: [line('Pipeline', pipe), line('MULTI/EXEC', multi)],
  };
};

/** Step 8: a read-compute-write loop costs two round trips per step; one EVAL does it on Redis in one. */
export const scriptsVerdict: TourVerdictFn = ({ traces }) => {
  const seq = byMode(traces, 'sequential');
  const script = byMode(traces, 'eval');
  if (!seq || !script) return null;
  const rtt = seq.rtt.addedMs > 0 ? ` at ${formatCount(seq.rtt.addedMs)} ms added RTT (delay proxy)` : '';
  const time = timeVerdict(traces, 'sequential', 'eval', 'sequential', 'the script');
  return {
    headline: `Measured: ${plural(roundTripsWaited(seq), 'round trip')} vs ${formatCount(roundTripsWaited(script))}; ${time.short}`,
    lines: [
      `Sequential GET, compute, SET × ${formatCount(seq.run.operations)}: ${plural(roundTripsWaited(seq), 'round trip')}${rtt}, ${formatUs(seq.totals.durationUs)} — client socket.`,
      `One EVAL doing the same steps in Lua on Redis: ${plural(roundTripsWaited(script), 'round trip')}, ${formatUs(script.totals.durationUs)} — client socket.`,
      time.line,
    ],
  };
};

/**
 * Step 9 (a Redis Cluster): the pipeline split by node, one round trip on the critical path however many
 * nodes it went to; one MSET of the same keys refused by the node it went to, in Redis's words, and
 * counted there by INFO.
 */
export const clusterVerdict: TourVerdictFn = ({ traces }) => {
  const pipe = byMode(traces, 'pipeline');
  const mset = byMode(traces, 'multikey');
  const trips = pipe ? clusterRoundTrips(pipe) : null;
  if (!pipe || !mset || !trips || !mset.cluster) return null;
  const address = (connection: number) => pipe.cluster!.connections[connection]!.address;
  const used = trips.perNode.filter((node) => node.commands > 0);
  const refused = mset.commands.find((command) => 'error' in command);
  const error = refused && 'error' in refused ? refused.error : null;
  const counted = mset.cluster.nodeCounters?.find((c) => c.node === refused?.node);
  const node = refused?.connection === undefined ? null : mset.cluster.connections[refused.connection]!.address;
  return {
    headline: `Measured: the pipeline split over ${plural(used.length, 'node')} waited ${plural(trips.criticalPath, 'round trip')}; `
      + (error ? `one MSET of the same keys was refused: “${error}”` : 'one MSET of the same keys went through: its keys shared a slot'),
    lines: [
      ...used.map((n) => `${address(n.connection)}: ${plural(n.commands, 'command')} in ${plural(n.roundTrips, 'round trip')}, ${formatUs(n.spanUs)} — client socket.`),
      error && node
        ? `One MSET of ${plural(mset.run.operations, 'key')} to ${node}: “${error}”${counted ? ` — INFO on that node: errorstats ${Object.entries(counted.errors).map(([k, v]) => `${k} +${formatCount(v)}`).join(', ') || 'unchanged'}, rejected calls ${Object.entries(counted.rejectedCalls).map(([k, v]) => `${k} +${formatCount(v)}`).join(', ') || 'none'}` : ''}.`
        : `One MSET of ${plural(mset.run.operations, 'key')}: ${formatUs(mset.totals.durationUs)} — client socket.`,
    ],
  };
};
