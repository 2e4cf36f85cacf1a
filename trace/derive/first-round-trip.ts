// A run's first round trip beside its others: what a fresh start still costs once Pipescope's own
// set-up is out of the way. The executor's hot start leaves nothing idle between the warm-up's last
// round trips and t0, so what remains of the difference is the machine's (scheduling, caches), and a
// cold run shows the connection's own first-call costs. Derived from the trace, never stored; for runs
// whose every command waited a round trip of its own (sequential), at least three of them.
import type { TraceDocument } from '../format/trace-format.ts';
import { roundTripsWaited } from './round-trips.ts';

export interface FirstRoundTrip {
  /** The first command's round trip: its reply's read − its write (µs, client socket). */
  firstUs: number;
  /** The median round trip of the others (µs), and how many they are. */
  restUs: number;
  rest: number;
  /** firstUs ÷ restUs. */
  ratio: number;
}

/** Runs with fewer round trips have no "rest" to speak of. */
export const MIN_ROUND_TRIPS = 3;

export function firstRoundTrip(doc: TraceDocument): FirstRoundTrip | null {
  const { commands } = doc;
  if (commands.length < MIN_ROUND_TRIPS || roundTripsWaited(doc) !== commands.length) return null;
  const times = commands.map((c) => c.repliedUs - c.sentUs);
  const rest = times.slice(1).sort((a, b) => a - b);
  const mid = rest.length / 2;
  const restUs = rest.length % 2 ? rest[Math.floor(mid)]! : (rest[mid - 1]! + rest[mid]!) / 2;
  const firstUs = times[0]!;
  return { firstUs, restUs, rest: rest.length, ratio: restUs > 0 ? firstUs / restUs : Infinity };
}
