// The words for times, counts and a run's name that the app and the text exports (Mermaid, the text flow,
// the CLI) share: here in trace/, the leaf both import (the app's web/src/format/number-format.ts and
// format/run-label.ts take formatUs, formatCount, plural, the mode badges and the run title from here). Pure.
import { commandTakesValue } from '../format/run-request.ts';
import type { RunInfo } from '../format/trace-format.ts';

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const threeSig = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A duration given in µs, e.g. 845 µs, 1.04 ms, 64.7 ms, 1.44 s. */
export function formatUs(us: number): string {
  if (!Number.isFinite(us)) return '—';
  const sign = us < 0 ? '−' : '';
  const a = Math.abs(us);
  if (a === 0) return '0 µs';
  if (a < 1000) return `${sign}${threeSig.format(a)} µs`;
  if (a < 1_000_000) return `${sign}${threeSig.format(a / 1000)} ms`;
  return `${sign}${threeSig.format(a / 1_000_000)} s`;
}

/** A count with thousands separators: 1,000,000. */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? grouped.format(n) : '—';
}

/** "1 write", "10 writes". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** A time in µs exactly as recorded (at most 3 decimals), grouped: 12,345 µs. For tables where 3 significant digits would hide the step between rows. */
export function exactUs(us: number): string {
  const rounded = Math.round(us * 1000) / 1000;
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 3 }).format(rounded)} µs`;
}

/**
 * A run's title, as its panel says it: "10 × INCR", "1,000 × SET (100 B values) in pipelines of 100", or
 * "in one pipeline of N" when C ≥ N (10 commands do not make pipelines of 10,000).
 */
export function runTitleText(run: Pick<RunInfo, 'n' | 'command' | 'valueBytes' | 'operations' | 'mode' | 'chunk'> & Pick<Partial<RunInfo>, 'observed'>): string {
  if (run.observed) return observedTitleText(run.observed, run.n);
  const workload = `${formatCount(run.operations)} × ${run.command}${commandTakesValue(run.command) ? ` (${formatCount(run.valueBytes)} B values)` : ''}`;
  if (run.mode !== 'chunked' || run.chunk === undefined) return workload;
  return `${workload} in ${run.chunk >= run.n ? `one pipeline of ${formatCount(run.n)}` : `pipelines of ${formatCount(run.chunk)}`}`;
}

/** The mode badge on a run's panel: Sequential, Pipeline, Chunked, MULTI/EXEC, EVAL, EVALSHA, Multi-key, Auto-pipelined. */
export const MODE_BADGES: Readonly<Record<RunInfo['mode'], string>> = {
  sequential: 'Sequential', pipeline: 'Pipeline', chunked: 'Chunked',
  multi: 'MULTI/EXEC', eval: 'EVAL', evalsha: 'EVALSHA', multikey: 'Multi-key', auto: 'Auto-pipelined',
};

/**
 * A time in µs with every recorded digit, in the unit that reads best: 845 µs, 2.662 ms, 1.000204 s
 * (formatUs's 3 significant digits would print neighbouring messages of a long run alike).
 */
export function preciseUs(us: number): string {
  const a = Math.abs(us);
  const [divisor, unit, decimals] = a < 1000 ? [1, 'µs', 3] : a < 1_000_000 ? [1000, 'ms', 6] : [1_000_000, 's', 9];
  const value = Math.round((us / divisor) * 10 ** decimals) / 10 ** decimals;
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: decimals }).format(value).replace('-', '−')} ${unit}`;
}

/** An observed connection's title: "redis-py 4.3.4 · connection 2 · 12 commands" (who the client said it was, or its address). */
export function observedTitleText(observed: NonNullable<RunInfo['observed']>, n: number): string {
  const who = observed.libName ? `${observed.libName}${observed.libVersion ? ` ${observed.libVersion}` : ''}` : observed.clientAddress;
  return `${who} · connection ${observed.connection} · ${formatCount(n)} command${n === 1 ? '' : 's'}`;
}
