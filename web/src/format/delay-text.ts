// The label of a run with added delay: what was asked, by what, and what was measured beside it.
// "added delay: 1 ms RTT (proxy) · measured +1.02 ms per round trip (PING ×11 1.05 ms median,
// p10–p90 1.04 ms–1.09 ms; direct 32 µs)". When the measured added round trip is more than 5 % off the one
// asked, the line says so rather than claim the target. Older traces (no measured figures) keep the
// short form.
import type { Rtt } from '../../../trace/format/trace-format.ts';
import { formatUs } from './number-format.ts';

/** How far the measured added round trip may be from the one asked before the label says so. */
export const DELAY_TOLERANCE = 0.05;

export function delayText(rtt: Rtt): string | null {
  if (rtt.addedMs <= 0 && rtt.jitterMs <= 0) return null;
  const asked = `added delay: ${rtt.addedMs} ms RTT${rtt.jitterMs > 0 ? ` ± ${rtt.jitterMs} ms` : ''} (proxy)`;
  if (rtt.mechanism === undefined || rtt.directMedianUs === undefined) return asked;
  const addedUs = rtt.measuredMedianUs - rtt.directMedianUs;
  const spread = rtt.measuredP10Us !== undefined && rtt.measuredP90Us !== undefined ? `, p10–p90 ${formatUs(rtt.measuredP10Us)}–${formatUs(rtt.measuredP90Us)}` : '';
  const how = `PING ×${rtt.samples} ${formatUs(rtt.measuredMedianUs)} median${spread}; direct ${formatUs(rtt.directMedianUs)}`;
  const askedUs = rtt.addedMs * 1000;
  const off = askedUs > 0 ? addedUs / askedUs - 1 : 0;
  const verdict = rtt.jitterMs > 0 || Math.abs(off) <= DELAY_TOLERANCE
    ? `measured +${formatUs(addedUs)} per round trip`
    : `measured +${formatUs(addedUs)} per round trip, ${Math.round(Math.abs(off) * 100)} % ${off > 0 ? 'over' : 'under'} what was asked (a busy machine delays any thread)`;
  return `${asked} · ${verdict} (${how})`;
}
