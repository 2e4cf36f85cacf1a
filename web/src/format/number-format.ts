// How numbers read on screen: durations in µs / ms / s, counts with thousands separators, bytes in
// B / KiB / MiB, per-command ratios to three significant digits. Pure, so it is unit-tested.

// formatUs, formatCount and plural live in trace/ (export-words.ts), shared with the text exports and the CLI.
import { formatCount, formatUs, plural } from '../../../trace/export/export-words.ts';

export { formatCount, formatUs, plural };

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const threeSig = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 });


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

