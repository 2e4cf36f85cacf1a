// Which traces belong to which gallery card, and what they measured. The run store holds one request's
// traces at a time; the gallery keeps, per published benchmark and per added RTT, the latest traces that
// ran its workload (same command, N, value size, client, warm or cold), wherever they came from (a
// gallery click, the run form, a file), so each card keeps its result while another card runs. Pure.
import type { Engine, RunSpec } from '../../../trace/format/run-request.ts';
import { commandTakesValue } from '../../../trace/format/run-request.ts';
import { compareRepeats } from '../../../trace/derive/run-pairs.ts';
import { spreadOf } from '../../../trace/format/sweep-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { LivePair } from './pipelining-gap.ts';
import type { PublishedBenchmark, PublishedBenchmarkId } from './published-benchmarks.ts';

/** The engine a trace was recorded with, from its recorder.client ("ioredis 6.0.0", "raw socket …", "node-redis 5…"). */
export function engineOf(doc: TraceDocument): Engine | null {
  const client = doc.recorder.client.toLowerCase();
  if (client.startsWith('ioredis')) return 'ioredis';
  if (client.startsWith('raw')) return 'raw';
  if (client.startsWith('node-redis')) return 'node-redis';
  return null;
}

/** True when doc ran spec's workload in one of its modes (any added RTT; no planted error, no neighbour). */
export function runsWorkload(doc: TraceDocument, spec: RunSpec): boolean {
  const { run } = doc;
  return (
    run.command === spec.command &&
    run.operations === spec.n &&
    (!commandTakesValue(spec.command) || run.valueBytes === spec.valueBytes) &&
    spec.modes.includes(run.mode) &&
    engineOf(doc) === spec.engine &&
    (run.warmup === null) === spec.cold &&
    doc.rtt.jitterMs === spec.jitterMs &&
    run.injectedError === null &&
    doc.neighbor === null
  );
}

/** One card's result at one added RTT: its traces (every mode and repeat) and where they came from. */
export interface GalleryResult<Source extends string = string> {
  /** The delay proxy's added RTT, ms (0: direct). */
  addedMs: number;
  traces: readonly TraceDocument[];
  source: Source;
}

/** Per benchmark, its results in the order they last arrived (the latest last). */
export type GalleryResults<Source extends string = string> = Readonly<Partial<Record<PublishedBenchmarkId, readonly GalleryResult<Source>[]>>>;

/**
 * Folds the traces now on screen into the results: for each benchmark, the traces that ran its workload,
 * per added RTT, replace what was kept for that RTT. Returns `results` itself when nothing changed.
 */
export function collectResults<Source extends string>(
  results: GalleryResults<Source>,
  benchmarks: readonly PublishedBenchmark[],
  traces: readonly TraceDocument[],
  source: Source,
): GalleryResults<Source> {
  let next = results;
  for (const b of benchmarks) {
    const mine = traces.filter((d) => runsWorkload(d, b.spec));
    const byRtt = new Map<number, TraceDocument[]>();
    for (const d of mine) byRtt.set(d.rtt.addedMs, [...(byRtt.get(d.rtt.addedMs) ?? []), d]);
    for (const [addedMs, docs] of byRtt) {
      const kept = next[b.id] ?? [];
      const old = kept.find((r) => r.addedMs === addedMs);
      if (old && old.source === source && sameTraces(old.traces, docs)) continue;
      next = { ...next, [b.id]: [...kept.filter((r) => r !== old), { addedMs, traces: docs, source }] };
    }
  }
  return next;
}

const sameTraces = (a: readonly TraceDocument[], b: readonly TraceDocument[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/** The result without added delay, and the latest one through the delay proxy. */
export function directAndDelayed<R extends GalleryResult>(results: readonly R[] | undefined): { direct: R | null; delayed: R | null } {
  const list = results ?? [];
  return { direct: list.find((r) => r.addedMs === 0) ?? null, delayed: list.filter((r) => r.addedMs > 0).at(-1) ?? null };
}

/** The sequential and pipelined runs among traces, as a live pair (the ratio paired by round); null until both modes have a run. */
export function livePair(traces: readonly TraceDocument[]): LivePair | null {
  const seq = traces.filter((d) => d.run.mode === 'sequential');
  const pipe = traces.filter((d) => d.run.mode === 'pipeline');
  if (seq.length === 0 || pipe.length === 0) return null;
  const duration = (docs: TraceDocument[]) => spreadOf(docs.map((d) => d.totals.durationUs));
  const verdict = compareRepeats(seq, pipe);
  return {
    n: seq[0]!.run.operations,
    sequentialUs: duration(seq),
    pipelineUs: duration(pipe),
    rttUs: spreadOf([...seq, ...pipe].map((d) => d.rtt.measuredMedianUs)).median,
    sequentialRuns: seq.length,
    pipelineRuns: pipe.length,
    ratio: { median: verdict.ratio, lo: verdict.interval?.lo ?? null, hi: verdict.interval?.hi ?? null, pairs: verdict.pairs },
  };
}
