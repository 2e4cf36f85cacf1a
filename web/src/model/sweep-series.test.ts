import { describe, expect, it } from 'vitest';
import { SweepSpecSchema } from '../../../trace/format/sweep-format.ts';
import type { ActiveSweep } from './active-sweep.ts';
import { sweepDocument } from '../test-support/sweep-fixtures.ts';
import { seriesOfDocument, seriesOfLive, sweepRows } from './sweep-series.ts';

describe('seriesOfDocument', () => {
  it('takes median, min and max per depth, and I/O per command', () => {
    const series = seriesOfDocument(sweepDocument([1, 2, 64], 6_400));
    expect(series.depths).toEqual([1, 2, 64]);
    // values: each run's, in round order (run i of every depth came from round i).
    expect(series.ours[0]).toEqual({ depth: 1, spread: { median: 15_294, min: 9_962, max: 17_342 }, runs: 3, values: [9_962, 15_294, 17_342] });
    expect(series.reference[2]).toEqual({ depth: 64, spread: { median: 772_923, min: 760_000, max: 780_000 }, runs: 3, values: [772_923, 760_000, 780_000] });
    expect(series.serverReads.map((p) => p.spread.median)).toEqual([1, 0.5, 1 / 64]);
    expect(series.clientWrites.map((p) => p.spread.median)).toEqual([1, 0.5, 1 / 64]);
    expect(series.serverShared).toBe(false);
    expect(series.activeDepth).toBeNull();
  });

  it('Redis CPU per command where the runs measured it, with its source; none for sweeps recorded before', () => {
    expect(seriesOfDocument(sweepDocument([1, 2], 100))).toMatchObject({ serverCpu: [], serverCpuSource: null });
    const doc = sweepDocument([1, 64], 6_400);
    const cpu: Record<number, number> = { 1: 50_000, 64: 2_000 }; // µs over 6,400 commands
    const measured = { ...doc, points: doc.points.map((p) => ({ ...p, runs: p.runs.map((r) => ({ ...r, serverCpu: { source: 'proc-schedstat' as const, totalUs: cpu[p.depth]! } })) })) };
    const series = seriesOfDocument(measured);
    expect(series.serverCpuSource).toBe('proc-schedstat');
    expect(series.serverCpu.map((p) => [p.depth, p.spread.median])).toEqual([[1, 50_000 / 6_400], [64, 2_000 / 6_400]]);
    expect(sweepRows(series).map((r) => r.serverCpu?.spread.median)).toEqual([50_000 / 6_400, 2_000 / 6_400]);
  });

  it('has no reference series when redis-benchmark did not run', () => {
    expect(seriesOfDocument(sweepDocument([1, 2], 100, false)).reference).toEqual([]);
  });
});

describe('seriesOfLive', () => {
  const spec = SweepSpecSchema.parse({ command: 'PING', depths: [1, 2, 4], perPoint: 100, repeats: 2 });
  const active: ActiveSweep = {
    requestId: 's', spec, position: 0, cancelling: false, header: null, done: 3, total: 6,
    last: { tool: 'pipescope', depth: 4, repeat: 1 }, ours: [{ depth: 1, opsPerSec: [10] }, { depth: 2, opsPerSec: [30] }, { depth: 4, opsPerSec: [50] }], reference: [],
  };

  it('shows the ops/s so far over every depth asked for, and the depth under way', () => {
    const series = seriesOfLive(active, true);
    expect(series.depths).toEqual([1, 2, 4]);
    expect(series.ours).toEqual([
      { depth: 1, spread: { median: 10, min: 10, max: 10 }, runs: 1, values: [10] },
      { depth: 2, spread: { median: 30, min: 30, max: 30 }, runs: 1, values: [30] },
      { depth: 4, spread: { median: 50, min: 50, max: 50 }, runs: 1, values: [50] },
    ]);
    expect(series.serverReads).toEqual([]);
    expect(series.activeDepth).toBe(4); // run 4 of 6: round 2 goes back down, depth 4 first
    expect(seriesOfLive({ ...active, done: 4 }, true).activeDepth).toBe(2);
    expect(seriesOfLive(active, false).activeDepth).toBeNull();
    expect(seriesOfLive({ ...active, position: 1 }, true).activeDepth).toBeNull();
  });
});

describe('sweepRows', () => {
  it('gives one row per depth, speed-ups over the first depth, dashes for what is not measured', () => {
    const rows = sweepRows(seriesOfDocument(sweepDocument([1, 2, 64], 6_400)));
    expect(rows.map((r) => r.depth)).toEqual([1, 2, 64]);
    expect(rows[0]!.speedUp).toBe(1);
    expect(rows[2]!.speedUp).toBeCloseTo(215_485 / 15_294);
    expect(rows[2]!.referenceSpeedUp).toBeCloseTo(772_923 / 14_265);
    const live = sweepRows(seriesOfLive({
      requestId: 's', spec: SweepSpecSchema.parse({ command: 'PING', depths: [1, 2], perPoint: 10, repeats: 1 }), position: 0, cancelling: false,
      header: null, done: 1, total: 2, last: null, ours: [{ depth: 1, opsPerSec: [5] }], reference: [],
    }, true));
    expect(live[1]).toEqual({ depth: 2, ours: null, speedUp: null, serverReads: null, clientWrites: null, serverCpu: null, reference: null, referenceSpeedUp: null });
  });
});
