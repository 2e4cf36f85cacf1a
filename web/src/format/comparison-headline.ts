// The verdict lines above comparable runs (same command, N and value size, different modes), computed
// from their measured totals: sequential vs one pipeline, one pipeline vs chunks (or sequential vs
// chunks when there is no single pipeline), and — when the runs sampled memory — their peak memory side
// by side, each figure with its source. No line when the runs do not compare like for like. A memory
// repeat (run.memoryRepeat: its time includes the sampler's) is left out of the time lines and is what
// the memory line reads.
// Runs repeated K times compare their medians and show each range (median [min–max]); when the two
// ranges overlap, noise alone could put either ahead, so the line says "within noise" instead of a ratio.
import { rangesOverlap, spreadOver } from '../../../trace/derive/repeat-stats.ts';
import { spreadOf, type Spread } from '../../../trace/format/sweep-format.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { memoryPeak, type MemorySeriesKey } from '../model/memory-series.ts';
import type { RunGroup } from '../model/run-groups.ts';
import { formatBytes, formatUs } from './number-format.ts';
import { modePhrase, workloadTitle } from './run-label.ts';
import { spreadLine } from './spread-text.ts';

export interface Headline {
  kind: 'time' | 'memory';
  text: string;
}

const sameWorkload = (a: TraceDocument, b: TraceDocument) =>
  a.run.command === b.run.command && a.run.n === b.run.n && a.run.valueBytes === b.run.valueBytes;

/** One side of a comparison: its repeats' total times (client socket: t0 → last reply). */
interface Side {
  doc: TraceDocument;
  count: number;
  total: Spread;
}

function side(group: RunGroup): Side {
  return { doc: group.median, count: group.repeats.length, total: spreadOver(group.repeats, (d) => d.totals.durationUs) };
}

/** "1.19 ms", or with repeats "1.19 ms [1.1–1.42 ms]". */
const figure = (s: Side) => spreadLine(s.total, formatUs);

/** "sequential", "one pipeline", "the chunks": who was faster. */
function subject(doc: TraceDocument): string {
  return doc.run.mode === 'chunked' ? 'the chunks' : modePhrase(doc.run.mode);
}

function factorText(ratio: number): string {
  return ratio >= 10 ? Math.round(ratio).toString() : ratio.toFixed(1);
}

/** "(measured at the client socket)", with repeats "(medians of 5 runs each, measured at the client socket)". */
function how(a: Side, b: Side): string {
  if (a.count === 1 && b.count === 1) return '(measured at the client socket)';
  const runs = a.count === b.count ? `${a.count} runs each` : `${a.count} and ${b.count} runs`;
  return `(medians of ${runs}, measured at the client socket)`;
}

/** With repeats on either side and ranges that overlap: noise could flip the verdict. */
const withinNoise = (a: Side, b: Side) => (a.count > 1 || b.count > 1) && rangesOverlap(a.total, b.total);

/** The original verdict, sequential vs one pipeline. */
function sequentialVsPipeline(what: string, seq: Side, pipe: Side): string | null {
  const a = seq.total.median;
  const b = pipe.total.median;
  if (a <= 0 || b <= 0) return null;
  if (withinNoise(seq, pipe)) {
    return `${what}: sequential ${figure(seq)}, the pipeline ${figure(pipe)} — within noise: the ranges overlap ${how(seq, pipe)}.`;
  }
  const ratio = a / b;
  if (ratio >= 1.05) return `${what}: the pipeline took ${figure(pipe)}, sequential ${figure(seq)} — ${factorText(ratio)}× faster ${how(seq, pipe)}.`;
  if (ratio <= 1 / 1.05) {
    const when = seq.count === 1 && pipe.count === 1 ? 'this time ' : '';
    return `${what}: sequential took ${figure(seq)}, the pipeline ${figure(pipe)} — ${when}sequential was ${factorText(1 / ratio)}× faster ${how(seq, pipe)}.`;
  }
  return `${what}: sequential ${figure(seq)}, pipeline ${figure(pipe)} — about the same ${how(seq, pipe)}.`;
}

/** Any two modes: "1,000 × SET (100 B values): chunks of 100 took 8.4 s, one pipeline 14.2 s — the chunks were 1.7× faster …". */
function versus(what: string, a: Side, b: Side): string | null {
  const aUs = a.total.median;
  const bUs = b.total.median;
  if (aUs <= 0 || bUs <= 0) return null;
  const name = (s: Side) => modePhrase(s.doc.run.mode, s.doc.run.chunk);
  if (withinNoise(a, b)) return `${what}: ${name(a)} ${figure(a)}, ${name(b)} ${figure(b)} — within noise: the ranges overlap ${how(a, b)}.`;
  const ratio = aUs / bUs;
  if (ratio < 1.05 && ratio > 1 / 1.05) return `${what}: ${name(a)} ${figure(a)}, ${name(b)} ${figure(b)} — about the same ${how(a, b)}.`;
  const [fast, slow] = ratio >= 1.05 ? [b, a] : [a, b];
  const factor = Math.max(ratio, 1 / ratio);
  const verb = fast.doc.run.mode === 'chunked' ? 'were' : 'was';
  return `${what}: ${name(fast)} took ${figure(fast)}, ${name(slow)} ${figure(slow)} — ${subject(fast.doc)} ${verb} ${factorText(factor)}× faster ${how(a, b)}.`;
}

/** A run's peak of one series: the median over its repeats of each repeat's peak. */
function peakText(group: RunGroup, key: MemorySeriesKey): string {
  const peaks = group.repeats.flatMap((d) => {
    const peak = d.memory ? memoryPeak(d.memory, key) : null;
    return peak ? [peak.bytes] : [];
  });
  return peaks.length ? formatBytes(spreadOf(peaks).median) : '—';
}

/**
 * "Peak memory, one pipeline vs chunks of 10,000 — client heap 1.45 GiB vs 350 MiB, …". The heap, not
 * RSS: the heap is collected before each run's t0, while RSS rarely shrinks, so a run after a large one
 * starts from its RSS (the charts show RSS, from its first sample). With repeats, each figure is the
 * median of the repeats' peaks.
 */
function memoryLine(groups: RunGroup[]): string {
  const vs = (key: MemorySeriesKey) => groups.map((g) => peakText(g, key)).join(' vs ');
  const names = groups.map((g) => modePhrase(g.median.run.mode, g.median.run.chunk)).join(' vs ');
  const medians = groups.some((g) => g.repeats.length > 1) ? ' (medians over the repeats)' : '';
  return (
    `Peak memory${medians}, ${names} — client heap ${vs('heapUsed')} (Node process.memoryUsage); ` +
    `Redis: the run's connection ${vs('totMem')} (CLIENT LIST tot-mem), used_memory ${vs('usedMemory')} (INFO memory).`
  );
}

export function comparisonHeadlines(all: readonly RunGroup[]): Headline[] {
  // A memory repeat's time includes the sampler's: it is for the memory line only.
  const groups = all.filter((g) => !g.median.run.memoryRepeat);
  const first = groups[0];
  if (!first) return [];
  const comparable = groups.filter((g) => sameWorkload(g.median, first.median));
  const byMode = (mode: RunMode) => comparable.find((g) => g.median.run.mode === mode);
  const seq = byMode('sequential');
  const pipe = byMode('pipeline');
  const chunked = byMode('chunked');
  const what = workloadTitle(first.median.run);
  const lines: Headline[] = [];
  const add = (text: string | null) => text && lines.push({ kind: 'time', text });
  if (seq && pipe) add(sequentialVsPipeline(what, side(seq), side(pipe)));
  if (pipe && chunked) add(versus(what, side(pipe), side(chunked)));
  else if (seq && chunked) add(versus(what, side(seq), side(chunked)));
  if (lines.length === 0) return [];
  const sampled = all.filter((g) => g.median.memory !== null && sameWorkload(g.median, first.median));
  const sampledMode = (mode: RunMode) => sampled.find((g) => g.median.run.mode === mode && g.median.run.memoryRepeat) ?? sampled.find((g) => g.median.run.mode === mode);
  const compared = (['sequential', 'pipeline', 'chunked'] as const).filter((mode) => [seq, pipe, chunked].some((g) => g?.median.run.mode === mode))
    .map(sampledMode).filter((g): g is RunGroup => g !== undefined);
  if (compared.length >= 2) lines.push({ kind: 'memory', text: memoryLine(compared) });
  return lines;
}
