// The line that sets a sequential run's first round trip beside the others (trace/derive/first-round-trip.ts):
// "first round trip 38 µs, the rest 25 µs (median of 9): 1.5×", and what the difference is. A warm run
// was warmed right up to t0 (its warm-up's last round trips after every probe was attached), so what
// is left is the machine's; a cold one shows the connection's own first-call costs.
import { firstRoundTrip } from '../../../trace/derive/first-round-trip.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatUs } from './number-format.ts';

export function firstRoundTripText(doc: TraceDocument): string | null {
  if (doc.incomplete) return null;
  const first = firstRoundTrip(doc);
  if (!first) return null;
  const figures = `First round trip ${formatUs(first.firstUs)}, the rest ${formatUs(first.restUs)} (median of ${first.rest}): ${first.ratio.toFixed(1)}×`;
  if (!doc.run.warmup) return `${figures} — a cold connection: its first command pays the connection’s first-call costs.`;
  if (doc.run.warmup.tail) {
    return `${figures} — the connection was warmed right up to t0, every probe already attached, so what is left is the machine’s (scheduling, caches).`;
  }
  return `${figures} (client socket).`;
}
