// What the sweep chart and table show, from either a finished sweep document or a sweep still running
// (whose points have only their ops/s so far): per depth the spread (median, min, max) of our runs'
// ops/s, of redis-benchmark's, and the I/O and Redis's CPU time per command. Spreads come from the shared helpers in
// trace/format/sweep-format.ts, so the chart, the table and the CLI's table agree.
import {
  pointClientWritesPerCommand,
  pointOpsPerSec,
  pointServerCpuPerCommand,
  pointServerReadsPerCommand,
  spreadOf,
  sweepRunAt,
  type Spread,
  type SweepDocument,
} from '../../../trace/format/sweep-format.ts';
import type { ActiveSweep, LivePoint } from './active-sweep.ts';

export interface DepthSpread {
  depth: number;
  spread: Spread;
  /** How many runs the spread is made of. */
  runs: number;
  /** Each run's value in round order: value i of two depths came from round i, a pair (trace/derive/paired-verdict.ts). */
  values: readonly number[];
}

export interface SweepSeries {
  /** Every depth the sweep was asked for, measured yet or not: the x domain. */
  depths: readonly number[];
  /** Ops/s, client socket: operations ÷ (t0 → last reply), totals.opsPerSec of each run. */
  ours: readonly DepthSpread[];
  /** redis-benchmark's ops/s at the same depths. */
  reference: readonly DepthSpread[];
  /** Redis read events (INFO total_reads_processed) per command; empty until a sweep has finished. */
  serverReads: readonly DepthSpread[];
  /** Client socket writes per command. */
  clientWrites: readonly DepthSpread[];
  /** Redis's CPU time per command (µs), at the depths whose runs measured it (serverCpu); empty until a sweep has finished. */
  serverCpu: readonly DepthSpread[];
  /** Where serverCpu comes from: the kernel's count for the private redis-server, or INFO cpu; null when none was measured. */
  serverCpuSource: 'proc-schedstat' | 'redis-info-cpu' | null;
  /** Whether the Redis counts include other clients' traffic. */
  serverShared: boolean;
  /** Depth being measured now, while running. */
  activeDepth: number | null;
}

export function seriesOfDocument(doc: SweepDocument): SweepSeries {
  const { perPoint } = doc.sweep;
  return {
    depths: doc.sweep.depths,
    ours: doc.points.map((p) => ({ depth: p.depth, spread: pointOpsPerSec(p), runs: p.runs.length, values: p.runs.map((r) => r.totals.opsPerSec) })),
    reference: (doc.reference?.points ?? []).map((p) => ({ depth: p.depth, spread: spreadOf(p.opsPerSec), runs: p.opsPerSec.length, values: p.opsPerSec })),
    serverReads: doc.points.map((p) => ({ depth: p.depth, spread: pointServerReadsPerCommand(p, perPoint), runs: p.runs.length, values: p.runs.map((r) => r.counts.server.reads / perPoint) })),
    clientWrites: doc.points.map((p) => ({ depth: p.depth, spread: pointClientWritesPerCommand(p, perPoint), runs: p.runs.length, values: p.runs.map((r) => r.counts.client.writes / perPoint) })),
    serverCpu: doc.points.flatMap((p) => {
      const spread = pointServerCpuPerCommand(p, perPoint);
      const values = p.runs.flatMap((r) => (r.serverCpu && 'totalUs' in r.serverCpu ? [r.serverCpu.totalUs / perPoint] : []));
      return spread ? [{ depth: p.depth, spread, runs: p.runs.length, values }] : [];
    }),
    serverCpuSource: doc.points.flatMap((p) => p.runs.flatMap((r) => (r.serverCpu && 'totalUs' in r.serverCpu ? [r.serverCpu.source] : [])))[0] ?? null,
    serverShared: doc.points.some((p) => p.runs.some((r) => !r.counts.server.exclusive)),
    activeDepth: null,
  };
}

const spreadsOf = (points: readonly LivePoint[]): DepthSpread[] =>
  points.map((p) => ({ depth: p.depth, spread: spreadOf(p.opsPerSec), runs: p.opsPerSec.length, values: p.opsPerSec }));

/** A running (or stopped) sweep: ops/s only, as sweep-progress reported them. */
export function seriesOfLive(active: ActiveSweep, running: boolean): SweepSeries {
  const next = running ? nextDepth(active) : null;
  return {
    depths: active.spec.depths,
    ours: spreadsOf(active.ours),
    reference: spreadsOf(active.reference),
    serverReads: [],
    clientWrites: [],
    serverCpu: [],
    serverCpuSource: null,
    serverShared: false,
    activeDepth: next,
  };
}

/** The depth the backend is measuring now: that of the run after the last finished one (sweepRunAt's order). */
function nextDepth(active: ActiveSweep): number | null {
  if (active.position !== 0 || active.done >= active.total) return null;
  return sweepRunAt(active.spec, active.done + 1)?.depth ?? null;
}

/** The first measured depth (depth 1 when the sweep has it): what speed-ups are relative to. */
export function baselineOf(points: readonly DepthSpread[]): DepthSpread | null {
  return points[0] ?? null;
}

export interface SweepRow {
  depth: number;
  ours: DepthSpread | null;
  /** Median over the baseline's median. */
  speedUp: number | null;
  serverReads: DepthSpread | null;
  clientWrites: DepthSpread | null;
  /** Redis's CPU time per command (µs). */
  serverCpu: DepthSpread | null;
  reference: DepthSpread | null;
  referenceSpeedUp: number | null;
}

/** One row per depth asked for, in depth order; figures not yet measured are null. */
export function sweepRows(series: SweepSeries): SweepRow[] {
  const at = (points: readonly DepthSpread[], depth: number) => points.find((p) => p.depth === depth) ?? null;
  const base = baselineOf(series.ours);
  const refBase = baselineOf(series.reference);
  const ratio = (p: DepthSpread | null, b: DepthSpread | null) => (p && b && b.spread.median > 0 ? p.spread.median / b.spread.median : null);
  return series.depths.map((depth) => {
    const ours = at(series.ours, depth);
    const reference = at(series.reference, depth);
    return {
      depth,
      ours,
      speedUp: ratio(ours, base),
      serverReads: at(series.serverReads, depth),
      clientWrites: at(series.clientWrites, depth),
      serverCpu: at(series.serverCpu, depth),
      reference,
      referenceSpeedUp: ratio(reference, refBase),
    };
  });
}
