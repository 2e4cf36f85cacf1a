// Layout of the depth-sweep chart: from the sweep series and the chart's width to draw lists (marks,
// whiskers, lines, guides, ticks), all in one coordinate space — SVG user units = CSS px, origin at
// the SVG's top-left, y growing down. Two panels share one x axis, pipeline depth on a log₂ scale:
// throughput (ops/s; log or linear) on top, I/O per command (log) beneath. Pure: d3 scales and shape
// generators only, no DOM, so it is unit-tested; sweep-chart-view.tsx only loops over the result.
import { line, scaleLinear, scaleLog, type ScaleContinuousNumeric } from 'd3';
import type { DepthSpread, SweepSeries } from '../model/sweep-series.ts';
import { baselineOf } from '../model/sweep-series.ts';
import { formatDepth, formatRateTick, formatRatioTick } from '../format/sweep-text.ts';

export type YScaleKind = 'log' | 'linear';

export const SWEEP_MARGIN = { left: 78, right: 24, top: 12, bottom: 50 } as const;
export const THROUGHPUT_HEIGHT = 300;
export const IO_HEIGHT = 160;
/** Between the panels: the top panel's tick labels and the lower panel's title. */
export const PANEL_GAP = 46;
/** Two series at one depth sit this far either side of it, so their whiskers never overlap. */
export const DODGE_PX = 4;
/** The chart's least width, px: a phone's (360 px less the page's and the card's margins); a narrower host scrolls it. */
export const SWEEP_MIN_WIDTH = 300;
/** The plot width, px, the docs' 10× guide's whole label needs from its start (less: its short form). */
const DOCS_LABEL_LONG_PX = 400;
/** Ticks closer than this are thinned (custom depth lists such as 100, 128). */
const MIN_TICK_GAP_PX = 30;

export type SeriesKey = 'ours' | 'reference' | 'serverReads' | 'clientWrites';

/** One depth's figure: median dot at (x, y), whisker from yMin (max value) to yMax (min value). */
export interface MarkDraw {
  depth: number;
  x: number;
  y: number;
  /** Pixel y of the spread's max (top of the whisker) and min (bottom). */
  yTop: number;
  yBottom: number;
  median: number;
  min: number;
  max: number;
  runs: number;
}

export interface SeriesDraw {
  key: SeriesKey;
  /** The line through the medians, in depth order; '' with fewer than two marks. */
  path: string;
  marks: MarkDraw[];
}

export interface GuideDraw {
  key: 'linear' | 'docs10x' | 'perDepth';
  path: string;
  label: string;
  /** The label's anchor point, the text rotated by angle (degrees, SVG: clockwise) around it. */
  labelX: number;
  labelY: number;
  angle: number;
  anchor: 'start' | 'middle' | 'end';
  /** Which side of the line the text sits on. */
  side: 'above' | 'below';
}

export interface TickDraw {
  /** x for depth ticks, y for value ticks. */
  at: number;
  label: string;
  /** Minor ticks draw a grid line without a label. */
  major: boolean;
}

export interface PanelLayout {
  top: number;
  bottom: number;
  yTicks: TickDraw[];
  series: SeriesDraw[];
  guides: GuideDraw[];
}

export interface SweepLayout {
  width: number;
  height: number;
  plotLeft: number;
  plotRight: number;
  xTicks: TickDraw[];
  throughput: PanelLayout;
  io: PanelLayout;
  /** The depth being measured now, as an x, while a sweep runs. */
  activeX: number | null;
}

type Scale = ScaleContinuousNumeric<number, number>;

/** Depth → x: log₂, half a step of room either side of the first and last depth. */
export function depthScale(depths: readonly number[], plotLeft: number, plotRight: number): Scale {
  const lo = Math.max(1, depths[0] ?? 1);
  const hi = Math.max(lo, depths.at(-1) ?? lo);
  const pad = lo === hi ? 2 : Math.SQRT2;
  return scaleLog().base(2).domain([lo / pad, hi * pad]).range([plotLeft, plotRight]);
}

/** 1, 2, 5 × 10^k at or below / above a positive value. */
export function niceDown125(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return [5, 2, 1].map((m) => m * p).find((c) => c <= v * (1 + 1e-9)) ?? p;
}
export function niceUp125(v: number): number {
  const p = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((m) => m * p).find((c) => c >= v * (1 - 1e-9)) ?? 10 * p;
}

/** Ticks 1, 2, 5 × 10^k within [lo, hi]; with more than maxLabels, only the powers of ten are labelled. */
function logTicks(lo: number, hi: number, maxLabels: number, label: (v: number) => string): { value: number; label: string; major: boolean }[] {
  const values: number[] = [];
  for (let p = 10 ** Math.floor(Math.log10(lo)); p <= hi * 10; p *= 10) {
    for (const m of [1, 2, 5]) {
      const v = m * p;
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) values.push(Number(v.toPrecision(6)));
    }
  }
  const thin = values.length > maxLabels;
  return values.map((value) => {
    const major = !thin || Math.abs(Math.log10(value) - Math.round(Math.log10(value))) < 1e-9;
    return { value, label: label(value), major };
  });
}

function depthTicks(depths: readonly number[], x: Scale): TickDraw[] {
  const ticks: TickDraw[] = [];
  let lastX = -Infinity;
  for (const depth of depths) {
    const at = x(depth);
    if (at - lastX < MIN_TICK_GAP_PX) continue;
    ticks.push({ at, label: formatDepth(depth), major: true });
    lastX = at;
  }
  return ticks;
}

function marksOf(points: readonly DepthSpread[], x: Scale, y: Scale, dodge: number): MarkDraw[] {
  const [lo, hi] = y.domain() as [number, number];
  const clamp = (v: number) => y(Math.min(hi, Math.max(lo, v)));
  return points.map((p) => ({
    depth: p.depth,
    x: x(p.depth) + dodge,
    y: clamp(p.spread.median),
    yTop: clamp(p.spread.max),
    yBottom: clamp(p.spread.min),
    median: p.spread.median,
    min: p.spread.min,
    max: p.spread.max,
    runs: p.runs,
  }));
}

function seriesDraw(key: SeriesKey, points: readonly DepthSpread[], x: Scale, y: Scale, dodge: number): SeriesDraw {
  const marks = marksOf(points, x, y, dodge);
  const path = marks.length > 1 ? (line<MarkDraw>().x((m) => m.x).y((m) => m.y)(marks) ?? '') : '';
  return { key, path, marks };
}

/**
 * Where a sampled guide's label goes: at `at` (0–1) along the part inside the plot, turned to the
 * line's slope there. Null when no part of it is inside.
 */
function labelAlong(points: [number, number][], box: { left: number; right: number; top: number; bottom: number }, at: number): { x: number; y: number; angle: number } | null {
  const inside = points.filter(([px, py]) => px >= box.left && px <= box.right && py >= box.top && py <= box.bottom);
  if (inside.length < 2) return null;
  const i = Math.min(inside.length - 2, Math.max(0, Math.round(at * (inside.length - 1))));
  const [x0, y0] = inside[i]!;
  const [x1, y1] = inside[i + 1]!;
  return { x: (x0 + x1) / 2, y: (y0 + y1) / 2, angle: (Math.atan2(y1 - y0, x1 - x0) * 180) / Math.PI };
}

/** Samples f along the depth axis (log₂-evenly), as a path; the view clips it to the plot. */
function guidePath(from: number, to: number, f: (depth: number) => number, x: Scale, y: Scale): { path: string; points: [number, number][] } {
  const steps = 48;
  const points: [number, number][] = [];
  for (let i = 0; i <= steps; i++) {
    const depth = from * (to / from) ** (i / steps);
    points.push([x(depth), y(f(depth))]);
  }
  return { path: line()(points) ?? '', points };
}

function throughputPanel(series: SweepSeries, x: Scale, top: number, plotLeft: number, plotRight: number, kind: YScaleKind): PanelLayout {
  const bottom = top + THROUGHPUT_HEIGHT;
  const base = baselineOf(series.ours);
  const showDocsGuide = base !== null && series.depths.length > 1 && base.spread.median > 0;
  const values = [...series.ours, ...series.reference].flatMap((p) => [p.spread.min, p.spread.max]).filter((v) => v > 0);
  if (showDocsGuide) values.push(base.spread.median * 10);
  const lo = values.length ? Math.min(...values) : 1_000;
  const hi = values.length ? Math.max(...values) : 1_000_000;
  let y: Scale;
  let yTicks: TickDraw[];
  if (kind === 'log') {
    const domain: [number, number] = [niceDown125(lo / 1.15), niceUp125(Math.max(hi * 1.15, lo * 10))];
    y = scaleLog().domain(domain).range([bottom, top]);
    yTicks = logTicks(domain[0], domain[1], Math.floor(THROUGHPUT_HEIGHT / 24), formatRateTick).map((t) => ({ at: y(t.value), label: t.label, major: t.major }));
  } else {
    y = scaleLinear().domain([0, hi * 1.08]).range([bottom, top]).nice(6);
    yTicks = y.ticks(6).map((v) => ({ at: y(v), label: formatRateTick(v), major: true }));
  }
  const both = series.reference.length > 0;
  const guides: GuideDraw[] = [];
  const last = series.depths.at(-1) ?? 1;
  if (base && base.spread.median > 0 && series.depths.length > 1) {
    // Perfectly linear scaling from the measured baseline: its ops/s × depth / its depth.
    const linear = guidePath(base.depth, last, (d) => (base.spread.median * d) / base.depth, x, y);
    const label = `linear: depth-${formatDepth(base.depth)} rate × depth`;
    if (kind === 'log') {
      // A straight line on log–log; measured points mostly fall below it, so its label goes above, along it.
      const at = labelAlong(linear.points, { left: plotLeft, right: plotRight, top: top + 14, bottom }, 0.62);
      if (at) guides.push({ key: 'linear', path: linear.path, label, labelX: at.x, labelY: at.y, angle: at.angle, anchor: 'middle', side: 'above' });
    } else {
      // A steep curve on a linear axis: labelled level, just left of where it leaves the plot (or at its end).
      const [lx, ly] = linear.points.filter(([, py]) => py >= top).at(-1) ?? linear.points[0]!;
      guides.push({ key: 'linear', path: linear.path, label, labelX: lx - 8, labelY: Math.max(top + 16, ly), angle: 0, anchor: 'end', side: 'above' });
    }
  }
  if (showDocsGuide) {
    const level = y(base.spread.median * 10);
    guides.push({
      key: 'docs10x',
      path: `M${plotLeft},${level}H${x(last * Math.SQRT2)}`,
      // A plot a phone wide holds only the short form of the label (11 px italic, ~6 px a character).
      label: plotRight - plotLeft >= DOCS_LABEL_LONG_PX
        ? `10 × depth ${formatDepth(base.depth)} — “roughly 10×”, the Redis docs’ figure`
        : `Redis docs: 10 × depth ${formatDepth(base.depth)}`,
      labelX: plotLeft + 6,
      labelY: level,
      angle: 0,
      anchor: 'start',
      side: 'above',
    });
  }
  return {
    top,
    bottom,
    yTicks,
    series: [
      seriesDraw('ours', series.ours, x, y, both ? -DODGE_PX : 0),
      seriesDraw('reference', series.reference, x, y, both ? DODGE_PX : 0),
    ],
    guides,
  };
}

function ioPanel(series: SweepSeries, x: Scale, top: number, plotLeft: number, plotRight: number): PanelLayout {
  const bottom = top + IO_HEIGHT;
  const first = series.depths[0] ?? 1;
  const last = series.depths.at(-1) ?? first;
  const values = [...series.serverReads, ...series.clientWrites].flatMap((p) => [p.spread.min, p.spread.max]).filter((v) => v > 0);
  values.push(1 / first, 1 / last);
  const lo = niceDown125(Math.min(...values) / 1.3);
  const hi = niceUp125(Math.max(...values) * 1.3);
  const y = scaleLog().domain([lo, hi]).range([bottom, top]);
  // Powers of ten labelled, 2 and 5 as grid lines only.
  const yTicks = logTicks(lo, hi, 0, formatRatioTick).map((t) => ({ at: y(t.value), label: t.label, major: t.major }));
  const perDepth = guidePath(first, last, (d) => 1 / d, x, y);
  // The measured points lie on this line; its label goes beneath it, in the empty lower left.
  const at = series.depths.length > 1 ? labelAlong(perDepth.points, { left: plotLeft, right: plotRight, top, bottom }, 0.3) : null;
  const both = series.serverReads.length > 0 && series.clientWrites.length > 0;
  return {
    top,
    bottom,
    yTicks,
    series: [
      seriesDraw('serverReads', series.serverReads, x, y, both ? -DODGE_PX : 0),
      seriesDraw('clientWrites', series.clientWrites, x, y, both ? DODGE_PX : 0),
    ],
    guides: at ? [{ key: 'perDepth', path: perDepth.path, label: '1 / depth: one per pipeline', labelX: at.x, labelY: at.y, angle: at.angle, anchor: 'middle', side: 'below' }] : [],
  };
}

export function sweepLayout(series: SweepSeries, width: number, yScale: YScaleKind = 'log'): SweepLayout {
  const w = Math.max(SWEEP_MIN_WIDTH, Math.round(width));
  const plotLeft = SWEEP_MARGIN.left;
  const plotRight = w - SWEEP_MARGIN.right;
  const x = depthScale(series.depths, plotLeft, plotRight);
  const throughputTop = SWEEP_MARGIN.top;
  const ioTop = throughputTop + THROUGHPUT_HEIGHT + PANEL_GAP;
  return {
    width: w,
    height: ioTop + IO_HEIGHT + SWEEP_MARGIN.bottom,
    plotLeft,
    plotRight,
    xTicks: depthTicks(series.depths, x),
    throughput: throughputPanel(series, x, throughputTop, plotLeft, plotRight, yScale),
    io: ioPanel(series, x, ioTop, plotLeft, plotRight),
    activeX: series.activeDepth === null ? null : x(series.activeDepth),
  };
}
