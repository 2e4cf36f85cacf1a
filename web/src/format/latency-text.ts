// Per-command latency as redis-benchmark prints it — avg, min, p50, p95, p99, max — over a run's
// repeats: each figure's median [min–max]. A percentile the run has too few commands for (p99 needs
// 100: below that it is simply the maximum) shows "= max" instead of a number, and a note under the
// figures says why in words ("With 10 commands, p95 and p99 are the slowest one"). Pure, unit-tested.
import { percentileNeeds, type LatencyStats } from '../../../trace/derive/latency-stats.ts';
import { spreadOf, type Spread } from '../../../trace/format/sweep-format.ts';
import { formatCount, formatUs, plural } from './number-format.ts';
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

/** What a figure too small to differ from the max shows in its place. */
export const TOO_SMALL_TEXT = '= max';

/**
 * The note under the figures when some percentiles are only the slowest command: "With 10 commands, p95
 * and p99 are the slowest one: a percentile differs from the max from 20 (p95) and 100 (p99) commands on."
 * Null when every figure is a number of its own. With one command, every percentile is that command.
 */
export function tooFewNote(figures: readonly LatencyFigure[], count: number): string | null {
  const small = FIGURES.filter((f) => f.p !== undefined && figures.some((g) => g.id === f.id && g.tooSmall !== null));
  if (small.length === 0 || count === 0) return null;
  const labels = small.map((f) => f.label);
  const names = labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`;
  const verb = labels.length === 1 ? 'is' : 'are';
  const one = count === 1 ? 'that one' : 'the slowest one';
  const from = small.map((f) => `${formatCount(percentileNeeds(f.p!))} (${f.label})`);
  const fromText = from.length === 1 ? from[0]! : `${from.slice(0, -1).join(', ')} and ${from[from.length - 1]}`;
  return `With ${plural(count, 'command')}, ${names} ${verb} ${one}: a percentile differs from the max from ${fromText} commands on.`;
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
