// Per-command latency as redis-benchmark prints it — avg, min, p50, p95, p99, max — over a run's
// repeats: each figure's median [min–max]. A percentile the run has too few commands for (p99 needs
// 100: below that it is simply the maximum) says "n too small" instead of a number. Pure, unit-tested.
import { percentileNeeds, type LatencyStats } from '../../../trace/latency-stats.ts';
import { spreadOf, type Spread } from '../../../trace/sweep-format.ts';
import { formatCount, formatUs } from './number-format.ts';
import { spreadText } from './spread-text.ts';

export interface LatencyFigure {
  /** Test hook (data-metric): avg, min, p50, p95, p99, max. */
  id: string;
  label: string;
  spread: Spread;
  median: string;
  range: string | null;
  /** Why no number is shown ("p99 needs ≥ 100 commands, this run has 10"), or null. */
  tooSmall: string | null;
}

const FIGURES: { id: string; label: string; p?: number; pick: (s: LatencyStats) => number }[] = [
  { id: 'avg', label: 'avg', pick: (s) => s.avgUs },
  { id: 'min', label: 'min', pick: (s) => s.minUs },
  { id: 'p50', label: 'p50', p: 50, pick: (s) => s.p50Us },
  { id: 'p95', label: 'p95', p: 95, pick: (s) => s.p95Us },
  { id: 'p99', label: 'p99', p: 99, pick: (s) => s.p99Us },
  { id: 'max', label: 'max', pick: (s) => s.maxUs },
];

/** The six figures over the repeats' stats (one LatencyStats per repeat, all of the same n). */
export function latencyFigures(repeats: readonly LatencyStats[]): LatencyFigure[] {
  const count = repeats[0]?.count ?? 0;
  return FIGURES.map(({ id, label, p, pick }) => {
    const spread = spreadOf(repeats.map(pick));
    const needs = p === undefined ? 0 : percentileNeeds(p);
    const tooSmall = count < needs ? `${label} needs ≥ ${formatCount(needs)} commands; this run has ${formatCount(count)}` : null;
    return { id, label, spread, ...spreadText(spread, formatUs), tooSmall };
  });
}
