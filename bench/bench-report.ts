// What `npm run bench` found, and how it prints: one finding per goal of the benchmark, its measured
// median [min–max] beside the goal, judged on the median. The goals are the project's; the figures are
// this run's, on this machine, and nothing here fails a build: a missed goal is reported, not hidden.
// A figure measured for context (no goal of its own) is listed too, as "info".
import type { Spread } from './side-by-side.ts';

export interface Goal {
  /** "at most" for costs (time ratios, ms, bytes), "at least" for rates. */
  bound: 'at most' | 'at least';
  value: number;
}

export interface Finding {
  name: string;
  /** us: microseconds; count: how many of something (a whole number). */
  unit: 'ratio' | 'ms' | 'us' | 'ns' | 'bytes' | 'count';
  spread: Spread;
  /** null: measured for context, not judged. */
  goal: Goal | null;
  /** How it was measured, in one line. */
  how: string;
}

/** Whether the median meets the goal; null for a finding without one. */
export function met(finding: Finding): boolean | null {
  const { goal, spread: { median } } = finding;
  if (!goal) return null;
  return goal.bound === 'at most' ? median <= goal.value : median >= goal.value;
}

const UNIT_SUFFIX: Record<Finding['unit'], string> = { ratio: '×', ms: ' ms', us: ' µs', ns: ' ns', bytes: ' B', count: '' };

function formatNumber(value: number, unit: Finding['unit']): string {
  if (unit === 'ratio') return value.toFixed(2);
  if (unit === 'ms') return value < 10 ? value.toFixed(2) : value.toFixed(1);
  if (unit === 'us') return value < 10 ? value.toFixed(1) : value.toFixed(0);
  if (unit === 'count' || unit === 'ns') return value.toFixed(0);
  return value < 1 && value > 0 ? value.toFixed(3) : value.toFixed(1); // bytes: a compact trace's few hundredths of a byte per command
}

export function formatValue(value: number, unit: Finding['unit']): string {
  return `${formatNumber(value, unit)}${UNIT_SUFFIX[unit]}`;
}

/** "1.05× [0.97–1.20]": the median with its unit, the range in the same unit. */
export function formatSpread(spread: Spread, unit: Finding['unit']): string {
  const median = formatValue(spread.median, unit);
  return spread.min === spread.max ? median : `${median} [${formatNumber(spread.min, unit)}–${formatNumber(spread.max, unit)}]`;
}

/** The closing table: every goal, its figure, met or missed (figures without a goal: info). */
export function formatFindings(findings: readonly Finding[]): string {
  const verdict = (f: Finding) => {
    const ok = met(f);
    return ok === null ? 'info' : ok ? 'met' : 'MISSED';
  };
  const goalText = ({ goal, unit }: Finding) => (goal ? `${goal.bound === 'at most' ? '≤' : '≥'} ${formatValue(goal.value, unit)}` : '—');
  const rows = findings.map((f) => [f.name, formatSpread(f.spread, f.unit), goalText(f), verdict(f)]);
  const header = ['measured', 'median [min–max]', 'goal', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('   ').trimEnd();
  const notes = findings.map((f, i) => `  ${i + 1}. ${f.name}: ${f.how}`);
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line), '', ...notes].join('\n');
}
