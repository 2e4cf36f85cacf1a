// How numbers read on screen: durations in µs / ms / s, counts with thousands separators, bytes in
// B / KiB / MiB, per-command ratios to three significant digits. Pure, so it is unit-tested.

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const threeSig = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });

/** A duration given in microseconds, e.g. 845 µs, 1.04 ms, 64.7 ms, 1.44 s. */
export function formatUs(us: number): string {
  if (!Number.isFinite(us)) return '—';
  const sign = us < 0 ? '−' : '';
  const a = Math.abs(us);
  if (a === 0) return '0 µs';
  if (a < 1000) return `${sign}${threeSig.format(a)} µs`;
  if (a < 1_000_000) return `${sign}${threeSig.format(a / 1000)} ms`;
  return `${sign}${threeSig.format(a / 1_000_000)} s`;
}

/**
 * Axis tick labels. The unit follows the tick's size and the decimals follow the tick step, so
 * neighbouring ticks never print the same text when zoomed in: 39.21 ms, 39.22 ms, … 0 is plain "0".
 */
export function formatTickUs(us: number, stepUs?: number): string {
  if (us === 0) return '0';
  if (stepUs === undefined || !(stepUs > 0)) return formatUs(us);
  const a = Math.abs(us);
  const [unit, divisor] = a < 1000 ? ['µs', 1] : a < 1_000_000 ? ['ms', 1000] : ['s', 1_000_000];
  const decimals = Math.min(6, Math.max(0, -Math.floor(Math.log10(stepUs / divisor) + 1e-9)));
  const text = new Intl.NumberFormat('en-US', { minimumFractionDigits: 0, maximumFractionDigits: decimals }).format(us / divisor);
  return `${text} ${unit}`;
}

export function formatCount(n: number): string {
  return Number.isFinite(n) ? grouped.format(n) : '—';
}

/** Operations per second, rounded to whole operations: "154,679 ops/s". */
export function formatRate(opsPerSec: number): string {
  return `${formatCount(Math.round(opsPerSec))} ops/s`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  if (bytes < 1024) return `${grouped.format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${threeSig.format(bytes / 1024)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${threeSig.format(bytes / 1024 / 1024)} MiB`;
  return `${threeSig.format(bytes / 1024 / 1024 / 1024)} GiB`;
}

/** A ratio such as writes per command: 1, 0.1, 0.00001 — never rounded to zero when it is not zero. */
export function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  if (value >= 1) return threeSig.format(value);
  return String(Number(value.toPrecision(3)));
}

/** "1 write", "10 writes". */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
