// The density painter's promise, checked on its draw calls (jsdom has no canvas): a frame is a few
// dozen fills whatever N is — one path per colour and opacity level — and every row with requests,
// replies, writes or reads gets its rectangle. A recording stand-in for CanvasRenderingContext2D
// counts the calls.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { densityLayout } from '../layout/density-layout.ts';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import { timeScale } from '../layout/time-scale-layout.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { pipelineTrace, sequentialTrace, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { paintDensity } from './density-canvas-painter.ts';
import { PALETTE } from './palette.ts';

interface Calls {
  fill: number;
  rect: number;
  beginPath: number;
  clearRect: number;
  /** fillStyle at each fill, in order. */
  fillColours: string[];
}

function recordingContext(): { ctx: CanvasRenderingContext2D; calls: Calls } {
  const calls: Calls = { fill: 0, rect: 0, beginPath: 0, clearRect: 0, fillColours: [] };
  const ctx = {
    fillStyle: '',
    globalAlpha: 1,
    beginPath: () => void calls.beginPath++,
    rect: () => void calls.rect++,
    clearRect: () => void calls.clearRect++,
    fill() {
      calls.fill++;
      calls.fillColours.push(String(this.fillStyle));
    },
  };
  return { ctx: ctx as unknown as CanvasRenderingContext2D, calls };
}

const g = diagramGeometry(640);

function paint(doc: TraceDocument) {
  const columns = traceColumns(doc);
  const layout = densityLayout(columns, timeScale(columns.endUs, g), g);
  const { ctx, calls } = recordingContext();
  paintDensity(ctx, layout, g, columns.n);
  return { calls, layout };
}

const nonEmptyRows = (counts: ArrayLike<number>) => Array.from(counts).filter((c) => c > 0).length;

describe('paintDensity draw calls', () => {
  it('a pipeline of 100,000: a handful of fills, one rectangle per non-empty row and band', () => {
    const { calls, layout } = paint(pipelineTrace(100_000, 10_000, 1000));
    // ≤ 4 levels × 2 bands, the in-flight lane, writes, reads: at most 11 fills, 0 Redis-side strips.
    expect(calls.fill).toBeLessThanOrEqual(11);
    expect(calls.clearRect).toBe(1);
    const expectedRects =
      nonEmptyRows(layout.requests) + nonEmptyRows(layout.replies) + nonEmptyRows(layout.inFlight) + nonEmptyRows(layout.writes) + nonEmptyRows(layout.reads);
    expect(calls.rect).toBe(expectedRects);
    expect(calls.rect).toBeLessThanOrEqual(5 * layout.rows);
  });

  it('the number of fills does not grow with N', () => {
    const small = paint(pipelineTrace(1000, 100, 100)).calls.fill;
    const big = paint(pipelineTrace(100_000, 100, 100)).calls.fill;
    expect(big).toBeLessThanOrEqual(small + 4); // at most a level or two more per band, never per command
  });

  it('a sequential run keeps both colours in a row: request and reply fills, then the lane', () => {
    const { calls } = paint(sequentialTrace(2000, 10, 2));
    expect(calls.fillColours).toContain(PALETTE.request);
    expect(calls.fillColours).toContain(PALETTE.reply);
  });

  it('server-traced: executions and syscalls add their strips (a fill per level)', () => {
    const plain = paint(sequentialTrace(50)).calls.fill;
    const traced = paint(serverTracedSequential(50)).calls.fill;
    expect(traced).toBeGreaterThan(plain);
    expect(traced).toBeLessThanOrEqual(plain + 3 * 4);
  });
});
