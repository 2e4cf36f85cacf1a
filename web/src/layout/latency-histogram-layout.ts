// Lays out a run's latency histogram (trace/derive/latency-stats.ts latencyHistogram: fixed log-spaced
// buckets, 10 per decade) as bars over a log time axis. Pure, unit-tested. Coordinate space: CSS px
// relative to the histogram's <svg>.
//   latency → x: d3 scaleLinear over bucket index space [firstIndex, lastIndex + 1] (index k is
//                10^(k/10) µs, so equal steps are equal ratios) onto [LEFT, width − RIGHT]. The domain
//                is shared by every panel of a comparison (histogramDomain over the runs shown), so the
//                same latency sits at the same x in each.
//   count → y:   d3 scaleLinear over [0, this run's fullest bucket] onto [bottom, TOP].
// Ticks at 1, 10, 100 µs, 1 ms…; at 1-2-5 steps when the domain spans little more than a decade.
import { scaleLinear } from 'd3';
import { BUCKETS_PER_DECADE, type LatencyBucket } from '../../../trace/derive/latency-stats.ts';
import { formatCount, formatUs } from '../format/number-format.ts';

export const HISTOGRAM_HEIGHT = 62;
const LEFT = 30;
const RIGHT = 12;
const TOP = 6;
/** Room under the bars for the tick labels. */
const AXIS = 16;
/** Gap between neighbouring bars, px (bars narrower than 2 px touch). */
const BAR_GAP = 1;

export interface HistogramDomain {
  firstIndex: number;
  lastIndex: number;
  /** The fullest bucket over every panel: the count axis's label width, the same left edge in each. */
  maxCount?: number;
}

export interface HistogramBar {
  x: number;
  width: number;
  y: number;
  height: number;
  count: number;
  fromUs: number;
  toUs: number;
}

export interface HistogramLayout {
  width: number;
  bars: HistogramBar[];
  ticks: { x: number; label: string }[];
  /** The fullest bucket's count, printed at the top of the count axis. */
  maxCount: number;
  baseline: number;
  left: number;
  right: number;
}

/** The bucket range covering every histogram given (the runs shown side by side). */
export function histogramDomain(histograms: readonly (readonly LatencyBucket[])[]): HistogramDomain {
  const indexes = histograms.flatMap((h) => (h.length ? [h[0]!.index, h.at(-1)!.index] : []));
  const maxCount = Math.max(0, ...histograms.flatMap((h) => h.map((b) => b.count)));
  if (indexes.length === 0) return { firstIndex: 0, lastIndex: 0, maxCount };
  return { firstIndex: Math.min(...indexes), lastIndex: Math.max(...indexes), maxCount };
}

/** Room left of the plot for the count label (10 px monospace, ~6 px a character, 5 px gap): "12,772" fits. */
function countAxisLeft(maxCount: number): number {
  return Math.max(LEFT, 11 + 6 * formatCount(maxCount).length);
}

const r = (v: number) => Math.round(v * 100) / 100;

export function latencyHistogramLayout(buckets: readonly LatencyBucket[], domain: HistogramDomain, width: number): HistogramLayout {
  const w = Math.max(160, width);
  const baseline = HISTOGRAM_HEIGHT - AXIS;
  const maxCount = Math.max(0, ...buckets.map((b) => b.count));
  const left = countAxisLeft(Math.max(maxCount, domain.maxCount ?? 0));
  const x = scaleLinear()
    .domain([domain.firstIndex, domain.lastIndex + 1])
    .range([left, w - RIGHT]);
  const y = scaleLinear()
    .domain([0, Math.max(1, maxCount)])
    .range([baseline, TOP]);
  const bars = buckets
    .filter((b) => b.count > 0)
    .map((b) => {
      const x0 = x(b.index);
      const full = x(b.index + 1) - x0;
      const gap = full > 2 * BAR_GAP + 1 ? BAR_GAP : 0;
      return { x: r(x0 + gap / 2), width: r(full - gap), y: r(y(b.count)), height: r(baseline - y(b.count)), count: b.count, fromUs: b.fromUs, toUs: b.toUs };
    });
  return { width: w, bars, ticks: ticks(domain, x), maxCount, baseline, left, right: w - RIGHT };
}

/** Decades, or 1-2-5 steps when the domain spans fewer than 15 buckets; each at its exact latency. */
function ticks(domain: HistogramDomain, x: (index: number) => number): { x: number; label: string }[] {
  const from = domain.firstIndex / BUCKETS_PER_DECADE;
  const to = (domain.lastIndex + 1) / BUCKETS_PER_DECADE;
  const steps = domain.lastIndex + 1 - domain.firstIndex < 15 ? [1, 2, 5] : [1];
  const out: { x: number; label: string }[] = [];
  for (let decade = Math.floor(from); decade <= Math.ceil(to); decade++) {
    for (const m of steps) {
      const us = m * 10 ** decade;
      const at = Math.log10(us);
      if (at < from - 1e-9 || at > to + 1e-9) continue;
      out.push({ x: r(x(at * BUCKETS_PER_DECADE)), label: formatUs(us) });
    }
  }
  return out;
}
