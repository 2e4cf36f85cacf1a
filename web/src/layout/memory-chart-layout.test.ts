import { describe, expect, it } from 'vitest';
import type { MemorySeries } from '../model/memory-series.ts';
import { byteAxis, memoryPlotGeometry, memoryPlotLayout, type MemoryPlotInput } from './memory-chart-layout.ts';

const KiB = 1024;
const MiB = 1024 * 1024;

/** A series sampled every stepUs from 0 to endUs, bytes = f(atUs). */
function sampled(key: MemorySeries['key'], stepUs: number, endUs: number, f: (atUs: number) => number): MemorySeries {
  const atUs: number[] = [];
  for (let t = 0; t <= endUs; t += stepUs) atUs.push(t);
  return { key, atUs, bytes: atUs.map(f) };
}

const subpaths = (d: string) => (d.match(/M/g) ?? []).length;
const input = (series: MemorySeries[], fromUs: number, toUs: number, extra: Partial<MemoryPlotInput> = {}): MemoryPlotInput => ({
  series, gaps: [], thresholdUs: 50_000, fromUs, toUs, ...extra,
});

describe('byteAxis', () => {
  it('rounds the largest sample up to a nice top, ticked from 0 in the unit the sample is written in', () => {
    expect(byteAxis(0)).toEqual({ top: 1, ticks: [0], labels: ['0'] });
    expect(byteAxis(37 * KiB)).toEqual({ top: 40 * KiB, ticks: [0, 20 * KiB, 40 * KiB], labels: ['0', '20 KiB', '40 KiB'] });
    expect(byteAxis(2.07 * 1024 * MiB)).toMatchObject({ top: 3 * 1024 * MiB, labels: ['0', '1 GiB', '2 GiB', '3 GiB'] });
    expect(byteAxis(207 * MiB)).toMatchObject({ top: 300 * MiB, ticks: [0, 100 * MiB, 200 * MiB, 300 * MiB] });
    expect(byteAxis(1.08 * MiB)).toEqual({ top: 1.5 * MiB, ticks: [0, 0.5 * MiB, MiB, 1.5 * MiB], labels: ['0', '0.5 MiB', '1 MiB', '1.5 MiB'] });
    expect(byteAxis(40 * KiB).top).toBe(40 * KiB);
    expect(byteAxis(700)).toEqual({ top: 1000, ticks: [0, 500, 1000], labels: ['0', '500 B', '1000 B'] });
  });
});

describe('memoryPlotLayout', () => {
  const g = memoryPlotGeometry(400, true);

  it('maps the diagram’s time window onto the plot’s width and bytes onto its height', () => {
    expect(g).toMatchObject({ width: 400, left: 62, right: 386, top: 8, bottom: 66, axis: true });
    const s: MemorySeries = { key: 'heapUsed', atUs: [0, 50_000, 100_000], bytes: [0, 20 * MiB, 40 * MiB] };
    const layout = memoryPlotLayout(input([s], 0, 100_000), g);
    expect(layout.series[0]!.line).toBe('M62,66L224,37L386,8');
    expect(layout.series[0]!.peak).toEqual({ x: 386, y: 8 });
    expect(layout.yTicks.map((t) => t.label)).toEqual(['0', '20 MiB', '40 MiB']);
    expect(layout.xTicks[0]).toEqual({ at: 62, label: '0' });
    expect(layout.xTicks.at(-1)!.label).toBe('100 ms');
  });

  it('never draws a line across a gap: one subpath per run of samples, the gap as a band', () => {
    const s: MemorySeries = { key: 'rss', atUs: [0, 10_000, 20_000, 1_400_000, 1_410_000], bytes: [1, 2, 3, 4, 5] };
    const layout = memoryPlotLayout(input([s], 0, 1_410_000, { gaps: [{ fromUs: 20_000, toUs: 1_400_000 }] }), g);
    expect(subpaths(layout.series[0]!.line)).toBe(2);
    expect(layout.gaps).toHaveLength(1);
    expect(layout.gaps[0]!.x0).toBeCloseTo(62 + (20_000 / 1_410_000) * 324, 0);
    expect(layout.gaps[0]!.x1).toBeCloseTo(62 + (1_400_000 / 1_410_000) * 324, 0);
  });

  it('skips samples outside the window but one each side, and the peak when it is off screen', () => {
    const s = sampled('totMem', 10_000, 1_000_000, (t) => (t === 900_000 ? 99 * KiB : KiB));
    const layout = memoryPlotLayout(input([s], 100_000, 200_000), g);
    expect(layout.series[0]!.points).toBe(13); // 90 ms … 210 ms
    expect(layout.series[0]!.peak).toBeNull();
    expect(layout.gaps).toEqual([]);
  });

  it('draws a dot per sample while they are sparse, a line alone when dense (at most 4 samples per pixel column)', () => {
    const sparse = memoryPlotLayout(input([sampled('heapUsed', 10_000, 200_000, () => MiB)], 0, 200_000), g);
    expect(subpaths(sparse.series[0]!.dots)).toBe(21);
    const dense = sampled('heapUsed', 10, 1_000_000, (t) => (t % 20 === 0 ? MiB : 2 * MiB));
    const layout = memoryPlotLayout(input([dense], 0, 1_000_000, { thresholdUs: 1000 }), g);
    expect(layout.series[0]!.dots).toBe('');
    expect(layout.series[0]!.points).toBeLessThanOrEqual(4 * 325);
    expect(layout.series[0]!.points).toBeGreaterThan(2 * 324);
    // Each column keeps its lowest and highest sample: the line still spans both values.
    expect(layout.series[0]!.line).toContain(',8');
    expect(layout.series[0]!.line).toContain(`,${37}`);
  });

  it('still shows a sample alone between gaps, as a dot', () => {
    const s: MemorySeries = { key: 'rss', atUs: [...Array.from({ length: 2000 }, (_, i) => i * 10), 900_000], bytes: Array(2001).fill(MiB) };
    const layout = memoryPlotLayout(input([s], 0, 900_000, { thresholdUs: 100 }), g);
    expect(layout.series[0]!.dots).toBe('M386,8h0');
  });

  it('marks the peak of the main series only', () => {
    const a = sampled('totMem', 10_000, 100_000, (t) => t);
    const b = sampled('qbuf', 10_000, 100_000, (t) => t / 2);
    const layout = memoryPlotLayout(input([a, b], 0, 100_000), g);
    expect(layout.series.map((s) => s.peak !== null)).toEqual([true, false]);
  });

  it('draws samples taken before t0 in a "before t0" strip left of the time axis, not to scale and not joined to the run', () => {
    // The baseline 2 ms before t0 (a 1 ms run): to scale it would take two thirds of the plot.
    const s: MemorySeries = { key: 'heapUsed', atUs: [-2000, 500, 1000], bytes: [10 * MiB, 20 * MiB, 40 * MiB] };
    const layout = memoryPlotLayout(input([s], 0, 1000), g);
    expect(layout.baseline).toEqual({ x0: 62, x1: 112, label: '−2 ms' });
    // The time axis starts after the strip: 0 at 62 + 58 = 120, 1 ms at 386.
    expect(layout.xTicks[0]).toEqual({ at: 120, label: '0' });
    expect(layout.series[0]!.line).toBe('M253,37L386,8');
    // A lone baseline: its level across the strip (64 … 110), a dot in its middle.
    expect(layout.series[0]!.baseline).toBe('M64,51.5H110');
    expect(layout.series[0]!.dots).toMatch(/^M87,51.5h0/);
    expect(layout.series[0]!.points).toBe(3);
  });

  it('keeps the strip (and rings the peak there) when the baseline is the highest sample, zoomed in or not', () => {
    const s: MemorySeries = { key: 'totMem', atUs: [-300, -100, 10_000, 20_000], bytes: [30 * KiB, 40 * KiB, 20 * KiB, 21 * KiB] };
    const whole = memoryPlotLayout(input([s], 0, 20_000), g);
    // Two samples before t0: spread across the strip in time order, joined.
    expect(whole.series[0]!.baseline).toBe('M64,22.5L110,8');
    expect(whole.series[0]!.peak).toEqual({ x: 110, y: 8 });
    expect(whole.baseline?.label).toBe('−100 µs');
    const zoomed = memoryPlotLayout(input([s], 15_000, 20_000), g);
    expect(zoomed.baseline).not.toBeNull();
    // Zoomed to 15–20 ms: the line reaches in from the sample at 10 ms (left of the window, clipped), never from the baseline.
    expect(zoomed.series[0]!.line).toBe('M-146,37L386,35.6');
    // Without samples before t0 there is no strip and the axis starts at the left edge as before.
    expect(memoryPlotLayout(input([{ ...s, atUs: [0, 100, 10_000, 20_000] }], 0, 20_000), g).baseline).toBeNull();
  });
});
