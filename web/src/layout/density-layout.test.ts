import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { bucketCounts, densityLayout } from './density-layout.ts';
import { diagramGeometry } from './diagram-geometry.ts';
import { timeScale } from './time-scale-layout.ts';

const g = diagramGeometry(600);
const sum = (a: Uint32Array) => a.reduce((s, v) => s + v, 0);

describe('densityLayout', () => {
  it('counts every request and reply of a 100,000-command pipeline exactly once', () => {
    const columns = traceColumns(pipelineTrace(100_000, 100_000, 9_000, 200_000, 'PING'));
    const layout = densityLayout(columns, timeScale(columns.endUs, g), g);
    expect(sum(layout.requests)).toBe(100_000);
    expect(sum(layout.replies)).toBe(100_000);
    expect(layout.commandsDrawn).toBe(100_000);
    expect(sum(layout.writes)).toBe(1);
    expect(sum(layout.reads)).toBe(12);
    expect(layout.maxCount).toBe(100_000);
    expect(layout.labels.map((l) => l.label)).toContain('×100,000 in 1 write');
    expect(Math.max(...layout.inFlight)).toBe(100_000);
    expect(layout.inFlight[layout.rows - 1]).toBe(0);
  });

  it('sums to N for a sequential run, with one row per few pixels', () => {
    const columns = traceColumns(sequentialTrace(5000, 100, 20));
    const layout = densityLayout(columns, timeScale(columns.endUs, g), g);
    expect(layout.rows).toBe(Math.ceil((g.plotBottom - g.plotTop) / 2));
    expect(sum(layout.requests)).toBe(5000);
    expect(sum(layout.replies)).toBe(5000);
    expect(sum(layout.writes)).toBe(5000);
    expect(layout.labels).toHaveLength(0);
    expect(Math.max(...layout.inFlight)).toBeLessThanOrEqual(1);
  });

  it('counts only what is in view when zoomed, and agrees with the visible range', () => {
    const columns = traceColumns(sequentialTrace(5000, 100, 20));
    const scale = timeScale(columns.endUs, g, { k: 10, ty: -2000 });
    const layout = densityLayout(columns, scale, g);
    const [from, to] = scale.domain() as [number, number];
    const expected = Array.from(columns.sentUs).filter((t) => t >= from && t <= to).length;
    expect(sum(layout.requests)).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(5000);
  });
});

describe('densityLayout of a server-traced run', () => {
  it('counts every execution and syscall once on the Redis lane, and nothing for untraced runs', () => {
    const columns = traceColumns(serverTracedPipeline(5000));
    const layout = densityLayout(columns, timeScale(columns.endUs, g), g);
    expect(sum(layout.executions!)).toBe(5000);
    expect(sum(layout.syscalls!)).toBe(2);
    expect(sum(layout.others!)).toBe(1);
    const plain = traceColumns(pipelineTrace(10));
    expect(densityLayout(plain, timeScale(plain.endUs, g), g)).toMatchObject({ executions: null, syscalls: null, others: null });
  });
});

describe('bucketCounts', () => {
  it('puts an event on a row boundary into the lower row, and closes the last row', () => {
    const counts = bucketCounts(Float64Array.from([0, 5, 10, 10, 20]), Float64Array.from([0, 10, 20]));
    expect(Array.from(counts)).toEqual([2, 3]);
  });
});
