import { describe, expect, it } from 'vitest';
import { seriesOfDocument, type SweepSeries } from '../model/sweep-series.ts';
import { sweepDocument } from '../test-support/sweep-fixtures.ts';
import { DODGE_PX, IO_HEIGHT, SWEEP_MARGIN, SWEEP_MIN_WIDTH, THROUGHPUT_HEIGHT, niceDown125, niceUp125, sweepLayout } from './sweep-layout.ts';

const DEPTHS = [1, 2, 4, 8, 16, 32, 64];
const series = seriesOfDocument(sweepDocument(DEPTHS, 6_400));
const layout = sweepLayout(series, 1000);
const marks = (key: string) => [...layout.throughput.series, ...layout.io.series].find((s) => s.key === key)!.marks;

describe('sweepLayout', () => {
  it('puts depths on a log₂ axis: each doubling the same distance, inside the plot', () => {
    const xs = marks('ours').map((m) => m.x + DODGE_PX);
    const steps = xs.slice(1).map((x, i) => x - xs[i]!);
    for (const step of steps) expect(step).toBeCloseTo(steps[0]!, 6);
    expect(xs[0]).toBeGreaterThan(layout.plotLeft);
    expect(xs.at(-1)).toBeLessThan(layout.plotRight);
    expect(layout.plotRight).toBe(1000 - SWEEP_MARGIN.right);
    expect(layout.xTicks.map((t) => t.label)).toEqual(['1', '2', '4', '8', '16', '32', '64']);
  });

  it('draws one mark per depth with its measured numbers, higher ops/s higher up, whiskers around the median', () => {
    const ours = marks('ours');
    expect(ours.map((m) => m.depth)).toEqual(DEPTHS);
    expect(ours[0]).toMatchObject({ median: 15_294, min: 9_962, max: 17_342, runs: 3 });
    for (let i = 1; i < ours.length; i++) expect(ours[i]!.y).toBeLessThan(ours[i - 1]!.y);
    for (const m of ours) {
      expect(m.yTop).toBeLessThanOrEqual(m.y);
      expect(m.yBottom).toBeGreaterThanOrEqual(m.y);
      expect(m.y).toBeGreaterThanOrEqual(layout.throughput.top);
      expect(m.y).toBeLessThanOrEqual(layout.throughput.bottom);
    }
    expect(layout.throughput.series[0]!.path).toMatch(/^M[\d.]+,[\d.]+(L[\d.]+,[\d.]+){6}$/);
  });

  it('sets redis-benchmark beside ours, never on top of it', () => {
    const ours = marks('ours');
    const reference = marks('reference');
    expect(reference).toHaveLength(7);
    ours.forEach((m, i) => expect(reference[i]!.x - m.x).toBe(2 * DODGE_PX));
    expect(reference.at(-1)!.y).toBeLessThan(ours.at(-1)!.y); // 773k above 215k
  });

  it('gives the log axis 1-2-5 ticks that span every value and the docs’ 10× line', () => {
    const labels = layout.throughput.yTicks.filter((t) => t.major).map((t) => t.label);
    expect(labels).toEqual(['5k', '10k', '20k', '50k', '100k', '200k', '500k', '1M']);
    const docs = layout.throughput.guides.find((g) => g.key === 'docs10x')!;
    expect(docs.label).toMatch(/10 × depth 1/);
    expect(docs.path).toMatch(/^M78,[\d.]+H[\d.]+$/);
    const linear = layout.throughput.guides.find((g) => g.key === 'linear')!;
    expect(linear.path.startsWith('M')).toBe(true);
    expect(linear.labelY).toBeGreaterThanOrEqual(layout.throughput.top);
    expect(linear.angle).toBeLessThan(0); // rising to the right, the label turned with it
    expect(layout.io.guides[0]!.angle).toBeGreaterThan(0);
  });

  it('labels the docs’ 10× line in its short form on a plot a phone wide', () => {
    const docsLabel = (width: number) => sweepLayout(series, width).throughput.guides.find((g) => g.key === 'docs10x')!.label;
    expect(docsLabel(1000)).toBe('10 × depth 1 — “roughly 10×”, the Redis docs’ figure');
    expect(docsLabel(SWEEP_MIN_WIDTH)).toBe('Redis docs: 10 × depth 1');
  });

  it('draws linear ops/s from zero', () => {
    const linear = sweepLayout(series, 1000, 'linear');
    expect(linear.throughput.yTicks[0]).toMatchObject({ label: '0', at: linear.throughput.bottom });
    expect(linear.throughput.yTicks.at(-1)!.label).toBe('1M');
  });

  it('puts I/O per command on a log axis of powers of ten, with the 1/depth guide', () => {
    const reads = marks('serverReads');
    expect(reads.map((m) => m.median)).toEqual(DEPTHS.map((d) => Math.ceil(6_400 / d) / 6_400));
    expect(layout.io.yTicks.filter((t) => t.major).map((t) => t.label)).toEqual(['0.01', '0.1', '1']);
    // 1/depth falls by the same distance per doubling: a straight line on log–log.
    const dy = reads.slice(1).map((m, i) => m.y - reads[i]!.y);
    for (const step of dy) expect(step).toBeCloseTo(dy[0]!, 0);
    expect(layout.io.guides.map((g) => g.key)).toEqual(['perDepth']);
    expect(layout.io.top).toBeGreaterThan(layout.throughput.bottom);
    expect(layout.height).toBe(layout.io.top + IO_HEIGHT + SWEEP_MARGIN.bottom);
    expect(layout.throughput.bottom - layout.throughput.top).toBe(THROUGHPUT_HEIGHT);
  });

  it('lays out a sweep that has just started: axes over the depths asked for, no marks, no guides', () => {
    const empty: SweepSeries = { ...series, ours: [], reference: [], serverReads: [], clientWrites: [], activeDepth: 4 };
    const l = sweepLayout(empty, 200);
    expect(l.width).toBe(SWEEP_MIN_WIDTH);
    expect(l.throughput.series.every((s) => s.marks.length === 0 && s.path === '')).toBe(true);
    expect(l.throughput.guides).toEqual([]);
    expect(l.throughput.yTicks.length).toBeGreaterThan(2);
    expect(l.activeX).toBeGreaterThan(l.plotLeft);
  });

  it('thins depth ticks that would collide, and handles a single depth', () => {
    const custom = seriesOfDocument(sweepDocument([1, 2, 4, 8, 100, 128, 1000], 1_000));
    expect(sweepLayout(custom, 600).xTicks.map((t) => t.label)).toEqual(['1', '2', '4', '8', '100', '1,000']);
    const one = sweepLayout(seriesOfDocument(sweepDocument([16], 1_000)), 600);
    expect(one.xTicks.map((t) => t.label)).toEqual(['16']);
    expect(one.throughput.series[0]!.marks[0]!.x + DODGE_PX).toBeCloseTo((one.plotLeft + one.plotRight) / 2);
  });
});

describe('1-2-5 rounding', () => {
  it('rounds down and up to 1, 2 or 5 × 10^k', () => {
    expect([6_400, 9_999, 10_000, 0.03].map(niceDown125)).toEqual([5_000, 5_000, 10_000, 0.02]);
    expect([6_400, 10_000, 2_400_000, 0.03].map(niceUp125)).toEqual([10_000, 10_000, 5_000_000, 0.05]);
  });
});

describe('guide labels', () => {
  it('run along the linear guide on a log axis, and sit level where it leaves a linear one', () => {
    const log = sweepLayout(series, 1000, 'log').throughput.guides.find((g) => g.key === 'linear')!;
    expect(log).toMatchObject({ anchor: 'middle', side: 'above' });
    const linear = sweepLayout(series, 1000, 'linear').throughput.guides.find((g) => g.key === 'linear')!;
    expect(linear).toMatchObject({ angle: 0, anchor: 'end' });
    expect(linear.labelX).toBeLessThan(1000 - SWEEP_MARGIN.right);
  });
});
