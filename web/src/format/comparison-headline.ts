// The verdict lines above comparable runs (same command, N and value size, different modes), computed
// from their measured totals: sequential vs one pipeline, one pipeline vs chunks (or sequential vs
// chunks when there is no single pipeline), and — when the runs sampled memory — their peak memory side
// by side, each figure with its source. No line when the runs do not compare like for like. A memory
// repeat (run.memoryRepeat: its time includes the sampler's) is left out of the time lines and is what
// the memory line reads. On a cluster, a request comparing variants (clusterCompare) gets a line per
// mode run both ways ("one pipeline · keys spread" vs "one pipeline · one hash tag"), each side named
// with its variant (cluster-variant-label.ts).
// Each time line states the one verdict rule (trace/derive/paired-verdict.ts): the median of the
// per-round ratios with its 95 % interval, how many pairs the faster side won, and "within noise" only
// when the interval includes 1; each side's time is its median [min–max] over the repeats.
import { REPEAT_BELOW_US } from '../../../trace/format/run-request.ts';
import { spreadOver } from '../../../trace/derive/repeat-stats.ts';
import { compareRepeats } from '../../../trace/derive/run-pairs.ts';
import { verdictClause } from '../../../trace/derive/verdict-words.ts';
import { spreadOf, type Spread } from '../../../trace/format/sweep-format.ts';
import { RUN_MODES, type RunMode, type TraceDocument } from '../../../trace/format/trace-format.ts';
import { memoryPeak, type MemorySeriesKey } from '../model/memory-series.ts';
import type { RunGroup } from '../model/run-groups.ts';
import { clusterVariantLabels, withVariant } from './cluster-variant-label.ts';
import { formatBytes, formatUs } from './number-format.ts';
import { modePhrase, workloadTitle } from './run-label.ts';
import { spreadLine } from './spread-text.ts';

export interface Headline {
  kind: 'time' | 'memory';
  text: string;
}

const sameWorkload = (a: TraceDocument, b: TraceDocument) =>
  a.run.command === b.run.command && a.run.n === b.run.n && a.run.valueBytes === b.run.valueBytes;

/** One side of a comparison: its repeats and their total times (client socket: t0 → last reply). */
interface Side {
  doc: TraceDocument;
  /** Its cluster variant where the sides differ in it, or "". */
  variant: string;
  repeats: readonly TraceDocument[];
  total: Spread;
}

function side(group: RunGroup, variant = ''): Side {
  return { doc: group.median, variant, repeats: group.repeats, total: spreadOver(group.repeats, (d) => d.totals.durationUs) };
}

/** "1.19 ms", or with repeats "1.19 ms [1.1–1.42 ms]". */
const figure = (s: Side) => spreadLine(s.total, formatUs);

/** "sequential", "the pipeline", "the chunks": a side as the subject of a verdict, with its variant ("the pipeline · one hash tag"). */
function subject(s: Side): string {
  const { mode, chunk } = s.doc.run;
  return withVariant(mode === 'chunked' ? 'the chunks' : mode === 'pipeline' ? 'the pipeline' : modePhrase(mode, chunk), s.variant);
}

/** " Runs of a second or more run once." when a run that long is why there is one pair. */
function slowNote(a: Side, b: Side): string {
  const slow = [...a.repeats, ...b.repeats].some((d) => d.totals.doneUs >= REPEAT_BELOW_US);
  return slow && Math.min(a.repeats.length, b.repeats.length) === 1 ? ' Runs of a second or more run once.' : '';
}

/**
 * "10 × INCR: sequential 1.19 ms [1.1–1.42 ms], the pipeline 120 µs [95–160 µs] — the pipeline 9.9× faster
 * [95 % 8.1–12×], faster in 10 of 10 pairs (until certain: …), measured at the client socket."
 */
function versus(what: string, a: Side, b: Side): string | null {
  if (a.total.median <= 0 || b.total.median <= 0) return null;
  const name = (s: Side) => withVariant(modePhrase(s.doc.run.mode, s.doc.run.chunk), s.variant);
  const verdict = compareRepeats(a.repeats, b.repeats);
  return `${what}: ${name(a)} ${figure(a)}, ${name(b)} ${figure(b)} — ${verdictClause(verdict, subject(a), subject(b))}, measured at the client socket.${slowNote(a, b)}`;
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
  const labels = clusterVariantLabels(comparable.map((g) => g.median));
  const sideOf = (group: RunGroup) => side(group, labels[comparable.indexOf(group)]);
  const byMode = (mode: RunMode) => comparable.find((g) => g.median.run.mode === mode);
  const seq = byMode('sequential');
  const pipe = byMode('pipeline');
  const chunked = byMode('chunked');
  const what = workloadTitle(first.median.run);
  const lines: Headline[] = [];
  const add = (text: string | null) => text && lines.push({ kind: 'time', text });
  if (seq && pipe) add(versus(what, sideOf(seq), sideOf(pipe)));
  if (pipe && chunked) add(versus(what, sideOf(pipe), sideOf(chunked)));
  else if (seq && chunked) add(versus(what, sideOf(seq), sideOf(chunked)));
  // A mode run in two cluster variants: the variants against each other.
  for (const mode of RUN_MODES) {
    const [a, b] = comparable.filter((g) => g.median.run.mode === mode);
    if (a && b && sideOf(a).variant && sideOf(b).variant) add(versus(what, sideOf(a), sideOf(b)));
  }
  if (lines.length === 0) return [];
  const sampled = all.filter((g) => g.median.memory !== null && sameWorkload(g.median, first.median));
  const sampledMode = (mode: RunMode) => sampled.find((g) => g.median.run.mode === mode && g.median.run.memoryRepeat) ?? sampled.find((g) => g.median.run.mode === mode);
  const compared = (['sequential', 'pipeline', 'chunked'] as const).filter((mode) => [seq, pipe, chunked].some((g) => g?.median.run.mode === mode))
    .map(sampledMode).filter((g): g is RunGroup => g !== undefined);
  if (compared.length >= 2) lines.push({ kind: 'memory', text: memoryLine(compared) });
  return lines;
}
