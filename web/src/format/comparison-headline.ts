// The verdict lines above comparable runs (same command, N and value size, different modes), computed
// from their measured totals: sequential vs one pipeline, one pipeline vs chunks (or sequential vs
// chunks when there is no single pipeline), and — when the runs sampled memory — their peak memory side
// by side, each figure with its source. No line when the runs do not compare like for like.
import type { RunMode, TraceDocument } from '../../../trace/trace-format.ts';
import { memoryPeak, type MemorySeriesKey } from '../model/memory-series.ts';
import { formatBytes, formatUs } from './number-format.ts';
import { modePhrase, workloadTitle } from './run-label.ts';

export interface Headline {
  kind: 'time' | 'memory';
  text: string;
}

const sameWorkload = (a: TraceDocument, b: TraceDocument) =>
  a.run.command === b.run.command && a.run.n === b.run.n && a.run.valueBytes === b.run.valueBytes;

/** "sequential", "one pipeline", "the chunks": who was faster. */
function subject(doc: TraceDocument): string {
  return doc.run.mode === 'chunked' ? 'the chunks' : modePhrase(doc.run.mode);
}

function factorText(ratio: number): string {
  return ratio >= 10 ? Math.round(ratio).toString() : ratio.toFixed(1);
}

/** The original verdict, sequential vs one pipeline. */
function sequentialVsPipeline(what: string, seq: TraceDocument, pipe: TraceDocument): string | null {
  const a = seq.totals.durationUs;
  const b = pipe.totals.durationUs;
  if (a <= 0 || b <= 0) return null;
  const ratio = a / b;
  if (ratio >= 1.05) return `${what}: the pipeline took ${formatUs(b)}, sequential ${formatUs(a)} — ${factorText(ratio)}× faster (measured at the client socket).`;
  if (ratio <= 1 / 1.05) {
    return `${what}: sequential took ${formatUs(a)}, the pipeline ${formatUs(b)} — this time sequential was ${factorText(1 / ratio)}× faster (measured at the client socket).`;
  }
  return `${what}: sequential ${formatUs(a)}, pipeline ${formatUs(b)} — about the same (measured at the client socket).`;
}

/** Any two modes: "1,000 × SET (100 B values): chunks of 100 took 8.4 s, one pipeline 14.2 s — the chunks were 1.7× faster …". */
function versus(what: string, a: TraceDocument, b: TraceDocument): string | null {
  const aUs = a.totals.durationUs;
  const bUs = b.totals.durationUs;
  if (aUs <= 0 || bUs <= 0) return null;
  const name = (d: TraceDocument) => modePhrase(d.run.mode, d.run.chunk);
  const ratio = aUs / bUs;
  if (ratio < 1.05 && ratio > 1 / 1.05) {
    return `${what}: ${name(a)} ${formatUs(aUs)}, ${name(b)} ${formatUs(bUs)} — about the same (measured at the client socket).`;
  }
  const [fast, slow] = ratio >= 1.05 ? [b, a] : [a, b];
  const factor = Math.max(ratio, 1 / ratio);
  const verb = fast.run.mode === 'chunked' ? 'were' : 'was';
  return (
    `${what}: ${name(fast)} took ${formatUs(fast.totals.durationUs)}, ${name(slow)} ${formatUs(slow.totals.durationUs)} — ` +
    `${subject(fast)} ${verb} ${factorText(factor)}× faster (measured at the client socket).`
  );
}

function peakText(doc: TraceDocument, key: MemorySeriesKey): string {
  const peak = doc.memory ? memoryPeak(doc.memory, key) : null;
  return peak ? formatBytes(peak.bytes) : '—';
}

/**
 * "Peak memory, one pipeline vs chunks of 10,000 — client heap 1.45 GiB vs 350 MiB, …". The heap, not
 * RSS: the heap is collected before each run's t0, while RSS rarely shrinks, so a run after a large one
 * starts from its RSS (the charts show RSS, from its first sample).
 */
function memoryLine(docs: TraceDocument[]): string {
  const vs = (key: MemorySeriesKey) => docs.map((d) => peakText(d, key)).join(' vs ');
  const names = docs.map((d) => modePhrase(d.run.mode, d.run.chunk)).join(' vs ');
  return (
    `Peak memory, ${names} — client heap ${vs('heapUsed')} (Node process.memoryUsage); ` +
    `Redis: the run's connection ${vs('totMem')} (CLIENT LIST tot-mem), used_memory ${vs('usedMemory')} (INFO memory).`
  );
}

export function comparisonHeadlines(traces: readonly TraceDocument[]): Headline[] {
  const first = traces[0];
  if (!first) return [];
  const comparable = traces.filter((d) => sameWorkload(d, first));
  const byMode = (mode: RunMode) => comparable.find((d) => d.run.mode === mode);
  const seq = byMode('sequential');
  const pipe = byMode('pipeline');
  const chunked = byMode('chunked');
  const what = workloadTitle(first.run);
  const lines: Headline[] = [];
  const add = (text: string | null) => text && lines.push({ kind: 'time', text });
  if (seq && pipe) add(sequentialVsPipeline(what, seq, pipe));
  if (pipe && chunked) add(versus(what, pipe, chunked));
  else if (seq && chunked) add(versus(what, seq, chunked));
  if (lines.length === 0) return [];
  const compared = [seq, pipe, chunked].filter((d): d is TraceDocument => d !== undefined && d.memory !== null);
  if (compared.length >= 2) lines.push({ kind: 'memory', text: memoryLine(compared) });
  return lines;
}
