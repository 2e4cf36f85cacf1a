// What `npm run bench` found, and how it prints: one finding per goal of the benchmark, its measured
// median [min–max] beside the goal, judged on the median. The goals are the issue's; the figures are
// this run's, on this machine, and nothing here fails a build: a missed goal is reported, not hidden.
import type { Spread } from './side-by-side.ts';

export interface Goal {
  /** "at most" for costs (time ratios, ms, bytes), "at least" for rates. */
  bound: 'at most' | 'at least';
  value: number;
}

export interface Finding {
  name: string;
  unit: 'ratio' | 'ms' | 'bytes';
  spread: Spread;
  goal: Goal;
  /** How it was measured, in one line. */
  how: string;
}

export function met(finding: Finding): boolean {
  const { median } = finding.spread;
  return finding.goal.bound === 'at most' ? median <= finding.goal.value : median >= finding.goal.value;
}

const UNIT_SUFFIX: Record<Finding['unit'], string> = { ratio: '×', ms: ' ms', bytes: ' B' };

function formatNumber(value: number, unit: Finding['unit']): string {
  if (unit === 'ratio') return value.toFixed(2);
  if (unit === 'ms') return value < 10 ? value.toFixed(2) : value.toFixed(1);
  return value.toFixed(1);
}

export function formatValue(value: number, unit: Finding['unit']): string {
  return `${formatNumber(value, unit)}${UNIT_SUFFIX[unit]}`;
}

/** "1.05× [0.97–1.20]": the median with its unit, the range in the same unit. */
export function formatSpread(spread: Spread, unit: Finding['unit']): string {
  const median = formatValue(spread.median, unit);
  return spread.min === spread.max ? median : `${median} [${formatNumber(spread.min, unit)}–${formatNumber(spread.max, unit)}]`;
}

/** The closing table: every goal, its figure, met or missed. */
export function formatFindings(findings: readonly Finding[]): string {
  const rows = findings.map((f) => [f.name, formatSpread(f.spread, f.unit), `${f.goal.bound === 'at most' ? '≤' : '≥'} ${formatValue(f.goal.value, f.unit)}`, met(f) ? 'met' : 'MISSED']);
  const header = ['measured', 'median [min–max]', 'goal', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('   ').trimEnd();
  const notes = findings.map((f, i) => `  ${i + 1}. ${f.name}: ${f.how}`);
  return [line(header), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line), '', ...notes].join('\n');
}
