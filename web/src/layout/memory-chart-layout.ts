// Lays out one memory plot under a run's sequence diagram: a few byte series over the run's time. Pure:
// draw lists in, draw lists out, unit-tested in node. Coordinate spaces (CSS px, relative to the plot's
// <svg>):
//   trace time µs → x: d3 scaleLinear over the time window the run's diagram shows ([fromUs, toUs]: the
//                    panel's domain [0, domainEndUs] under the shared zoom) onto [left, width − right].
//   bytes → y:      d3 scaleLinear over [0, top] (the largest sample rounded up to a nice value in B,
//                    KiB, MiB or GiB; see byteAxis) onto [bottom, top].
// Level of detail: samples outside the window are skipped, except one each side so lines reach the edge;
// beyond two samples per px each pixel column keeps its first, lowest, highest and last sample (M4); dots
// only while samples are DOT_SPACING_PX apart on average (and always for a sample alone between gaps).
// Lines never cross a gap longer than thresholdUs: those stretches are drawn as gap bands instead.
// Baseline: samples taken before t0 (negative atUs: the sampler's first reading of each side, the level
// the run's growth is measured from) are not on the run's time axis, and may come long before a short
// run. When there are any, the plot keeps a strip of BASELINE_PX at its left, [left, left + BASELINE_PX
// − BASELINE_GAP], marked "before t0" and labelled with the baseline's time: there the pre-t0 samples
// sit evenly spaced in time order (not to scale), each series' level drawn across the strip; the time
// axis starts after it. No line joins the baseline to the first sample after t0.
import { scaleLinear, tickStep } from 'd3';
import { formatTickUs, formatUs } from '../format/number-format.ts';
import { seriesPeak, type MemorySeries, type SampleGap } from '../model/memory-series.ts';
import { lowerBound, upperBound } from '../base/sorted-search.ts';

export const MEMORY_PLOT_HEIGHT = 70;
/** Extra height of the plot that carries the time axis labels. */
export const MEMORY_AXIS_HEIGHT = 18;
const LEFT = 62;
const RIGHT = 14;
const TOP = 8;
const BOTTOM = 4;
/** Average spacing from which each sample gets a dot. */
export const DOT_SPACING_PX = 5;
/** Width of the "before t0" strip for the baseline samples, px, and the gap after it. */
export const BASELINE_PX = 58;
export const BASELINE_GAP = 8;

export interface MemoryPlotGeometry {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
  axis: boolean;
}

export function memoryPlotGeometry(width: number, axis: boolean): MemoryPlotGeometry {
  const w = Math.max(200, width);
  const height = MEMORY_PLOT_HEIGHT + (axis ? MEMORY_AXIS_HEIGHT : 0);
  return { width: w, height, left: LEFT, right: w - RIGHT, top: TOP, bottom: MEMORY_PLOT_HEIGHT - BOTTOM, axis };
}

export interface MemoryPlotInput {
  /** The first series is the panel's main one: its peak is marked. */
  series: readonly MemorySeries[];
  gaps: readonly SampleGap[];
  /** Consecutive samples further apart than this are not joined by a line. */
  thresholdUs: number;
  fromUs: number;
  toUs: number;
  /**
   * The byte axis reaches at least this: the highest peak of the same plot over every run compared
   * (model/memory-series.ts sharedMemoryTops), so compared plots share one scale. Absent: the plot's own peak.
   */
  sharedTopBytes?: number;
}

export interface Tick {
  at: number;
  label: string;
}

export interface SeriesDraw {
  key: string;
  /** SVG path data: one subpath per run of samples without a gap. */
  line: string;
  /** Zero-length subpaths, drawn as dots by round line caps. */
  dots: string;
  /** Samples drawn (after level of detail), the baseline's included. */
  points: number;
  /** The samples before t0 in the "before t0" strip: their level across it (path data), or ''. */
  baseline: string;
  peak: { x: number; y: number } | null;
}

export interface MemoryPlotLayout {
  xTicks: Tick[];
  yTicks: Tick[];
  gaps: { x0: number; x1: number }[];
  series: SeriesDraw[];
  /** The "before t0" strip, when there are samples before t0: its extent and its label (the baseline's time). */
  baseline: { x0: number; x1: number; label: string } | null;
}

const UNITS = [1, 1024, 1024 ** 2, 1024 ** 3];
const UNIT_NAMES = ['B', 'KiB', 'MiB', 'GiB'];

/**
 * The byte axis for samples up to max, in the unit max is written in: ticks from 0 a nice step apart
 * up to the first one at or above max (two to four intervals), e.g. 0, 1, 2, 3 GiB; the top is the last.
 */
export function byteAxis(max: number): { top: number; ticks: number[]; labels: string[] } {
  if (!(max > 0)) return { top: 1, ticks: [0], labels: ['0'] };
  const u = [...UNITS.keys()].reverse().find((k) => max >= UNITS[k]!) ?? 0;
  const unit = UNITS[u]!;
  const step = tickStep(0, max / unit, 2);
  const intervals = Math.ceil(max / unit / step - 1e-9);
  const values = Array.from({ length: intervals + 1 }, (_, i) => Number((i * step).toPrecision(12)));
  // Every label in the same unit: 0, 0.5 MiB, 1 MiB, 1.5 MiB.
  return { top: values.at(-1)! * unit, ticks: values.map((v) => v * unit), labels: values.map((v) => (v === 0 ? '0' : `${v} ${UNIT_NAMES[u]}`)) };
}

const r = (v: number) => Math.round(v * 10) / 10;

export function memoryPlotLayout(input: MemoryPlotInput, g: MemoryPlotGeometry): MemoryPlotLayout {
  const fromUs = input.fromUs;
  const toUs = input.toUs > fromUs ? input.toUs : fromUs + 1;
  // Samples before t0, per series: the first `before[i]` of its (ascending) samples.
  const before = input.series.map((s) => lowerBound(s.atUs, 0));
  const hasBaseline = before.some((k) => k > 0);
  const timeLeft = hasBaseline ? g.left + BASELINE_PX : g.left;
  const x = scaleLinear().domain([fromUs, toUs]).range([timeLeft, g.right]);
  const max = Math.max(input.sharedTopBytes ?? 0, ...input.series.map((s) => seriesPeak(s)?.bytes ?? 0));
  const axis = byteAxis(max);
  const y = scaleLinear().domain([0, axis.top]).range([g.bottom, g.top]);

  const timeTicks = x.ticks(Math.max(2, Math.floor((g.right - timeLeft) / 90))).filter((us) => us >= 0);
  const step = timeTicks.length > 1 ? timeTicks[1]! - timeTicks[0]! : undefined;
  const xTicks = timeTicks.map((us) => ({ at: r(x(us)), label: formatTickUs(us, step) }));
  const yTicks = axis.ticks.map((b, i) => ({ at: r(y(b)), label: axis.labels[i]! }));

  const gaps = input.gaps
    .filter((gap) => gap.toUs > fromUs && gap.fromUs < toUs)
    .map((gap) => ({ x0: r(Math.max(timeLeft, x(gap.fromUs))), x1: r(Math.min(g.right, x(gap.toUs))) }))
    .filter((gap) => gap.x1 - gap.x0 >= 1);

  // The strip's x for the k-th of `count` samples before t0: evenly spaced, a lone one in the middle.
  const stripLeft = g.left + 2;
  const stripRight = g.left + BASELINE_PX - BASELINE_GAP - 2;
  const stripX = (k: number, count: number) => (count === 1 ? (stripLeft + stripRight) / 2 : stripLeft + ((stripRight - stripLeft) * k) / (count - 1));

  const series = input.series.map((s, i): SeriesDraw => {
    const first = before[i]!;
    let baseline = '';
    for (let k = 0; k < first; k++) {
      const py = r(y(s.bytes[k]!));
      // A lone sample is a level across the strip; several are joined in time order.
      baseline += first === 1 ? `M${r(stripLeft)},${py}H${r(stripRight)}` : `${k === 0 ? 'M' : 'L'}${r(stripX(k, first))},${py}`;
    }
    const start = Math.max(first, lowerBound(s.atUs, fromUs) - 1);
    const end = Math.min(s.atUs.length, upperBound(s.atUs, toUs) + 1);
    const visible = Math.max(0, end - start);
    const dense = visible > 2 * (g.right - timeLeft);
    const allDots = visible > 0 && (g.right - timeLeft) / visible >= DOT_SPACING_PX;
    let line = '';
    let dots = '';
    let points = first;
    for (let k = 0; k < first; k++) dots += `M${r(stripX(k, first))},${r(y(s.bytes[k]!))}h0`;
    for (const run of runsBetweenGaps(s.atUs, start, end, input.thresholdUs)) {
      const picked = dense ? m4(s, run.start, run.end, x) : range(run.start, run.end);
      points += picked.length;
      picked.forEach((k, j) => {
        const px = r(x(s.atUs[k]!));
        const py = r(y(s.bytes[k]!));
        line += `${j === 0 ? 'M' : 'L'}${px},${py}`;
        if (allDots || picked.length === 1) dots += `M${px},${py}h0`;
      });
    }
    const peak = i === 0 ? seriesPeak(s) : null;
    const peakIndex = peak ? s.atUs.indexOf(peak.atUs) : -1;
    const peakBefore = peak !== null && peakIndex >= 0 && peakIndex < first;
    const peakShown = peak !== null && (peakBefore || (peak.atUs >= fromUs && peak.atUs <= toUs));
    const peakX = peakBefore ? stripX(peakIndex, first) : peak ? x(peak.atUs) : 0;
    return { key: s.key, line, dots, baseline, points, peak: peakShown ? { x: r(peakX), y: r(y(peak.bytes)) } : null };
  });
  const lastBefore = input.series.flatMap((s, i) => (before[i]! > 0 ? [s.atUs[before[i]! - 1]!] : []));
  const baseline = hasBaseline ? { x0: r(g.left), x1: r(g.left + BASELINE_PX - BASELINE_GAP), label: formatUs(Math.max(...lastBefore)) } : null;
  return { xTicks, yTicks, gaps, series, baseline };
}

/** Index ranges [start, end) of samples with no gap over thresholdUs inside. */
function runsBetweenGaps(atUs: readonly number[], start: number, end: number, thresholdUs: number): { start: number; end: number }[] {
  const runs: { start: number; end: number }[] = [];
  let from = start;
  for (let i = start + 1; i <= end; i++) {
    if (i === end || atUs[i]! - atUs[i - 1]! > thresholdUs) {
      if (i > from) runs.push({ start: from, end: i });
      from = i;
    }
  }
  return runs;
}

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}

/** Per pixel column: the first, lowest, highest and last sample, in time order. */
function m4(s: MemorySeries, start: number, end: number, x: (us: number) => number): number[] {
  const picked: number[] = [];
  let column = Number.NaN;
  let first = start;
  let low = start;
  let high = start;
  let last = start;
  const flush = () => {
    for (const k of [...new Set([first, low, high, last])].sort((a, b) => a - b)) picked.push(k);
  };
  for (let k = start; k < end; k++) {
    const c = Math.floor(x(s.atUs[k]!));
    if (c !== column) {
      if (k > start) flush();
      column = c;
      first = low = high = last = k;
    } else {
      last = k;
      if (s.bytes[k]! < s.bytes[low]!) low = k;
      if (s.bytes[k]! > s.bytes[high]!) high = k;
    }
  }
  if (end > start) flush();
  return picked;
}
