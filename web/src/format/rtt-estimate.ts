// The annotation under each run: its measured time in the parts it went to (trace/derive/run-phases.ts), beside
// what round trips and Redis's own service time account for — N × RTT + N × service (sequential),
// RTT + N × service (pipeline) or ⌈N / C⌉ × RTT + N × service (chunked: one round trip per pipeline of C).
// The estimate covers only the replies awaited and Redis executing, so the line sets it beside those
// two parts, measured, and says how many round trips they were and how long each took against the PING
// RTT; the client's own parts (before the first write, between replies, after the last read) are the
// rest of the difference. Every input is a measurement from the trace: RTT from the PINGs before t0,
// service time from INFO commandstats, the parts and round trips at the client socket.
import { runPhases } from '../../../trace/derive/run-phases.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { DEFAULT_BASE_RTT_US, roundTripsOf } from '../../../trace/format/run-duration.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { formatCount, formatUs, plural } from './number-format.ts';
import { clientPartsText, phasesTotalText } from './phase-text.ts';

// The two-minute question before a run is the backend's rule too: one module says it for both.
export { DEFAULT_BASE_RTT_US, LONG_RUN_US, expectedSequentialUs, longRunCheck, roundTripsOf, type LongRun } from '../../../trace/format/run-duration.ts';

export interface RttEstimate {
  /** Round trips the run had to wait for: n sequentially, 1 for a pipeline, one per pipeline when chunked. */
  roundTrips: number;
  rttUs: number;
  /** Redis's service time per command (INFO commandstats usec delta / n). */
  serviceUs: number;
  estimateUs: number;
  /** t0 → the last reply (totals.durationUs). */
  measuredUs: number;
  /** What the estimate covers, measured: the replies-awaited and Redis-executing parts of runPhases. */
  awaitedUs: number;
  /** Round trips the run waited through, counted at the client socket (model/round-trips.ts). */
  roundTripsMeasured: number;
}

export function rttEstimate(doc: TraceDocument): RttEstimate {
  const { n } = doc.run;
  const roundTrips = roundTripsOf(doc.run);
  const rttUs = doc.rtt.measuredMinUs;
  const serviceUs = doc.counts.server.execUs / n;
  const awaitedUs = runPhases(doc)
    .filter((p) => p.name === 'awaiting' || p.name === 'redisExec')
    .reduce((sum, p) => sum + p.us, 0);
  return {
    roundTrips, rttUs, serviceUs, estimateUs: roundTrips * rttUs + n * serviceUs, measuredUs: doc.totals.durationUs, awaitedUs,
    roundTripsMeasured: roundTripsWaited(doc),
  };
}

/**
 * "measured 1.3 ms (t0 → call returned) = 931 µs replies awaited and Redis executing + 372 µs client (114 µs
 * before first write + 248 µs between replies and next writes + 10 µs after last read) · estimate 10 × 92 µs
 * RTT + 10 × 1.7 µs in Redis = 937 µs covers only the replies awaited and Redis executing: 10 round trips of
 * 93.1 µs against the 92 µs PING RTT before t0"
 */
export function rttEstimateText(doc: TraceDocument): string {
  const e = rttEstimate(doc);
  const client = clientPartsText(runPhases(doc));
  const measured = `measured ${phasesTotalText(doc)} = ${formatUs(e.awaitedUs)} replies awaited and Redis executing${client ? ` + ${client}` : ''}`;
  const trips = `${formatCount(e.roundTrips)} × ${formatUs(e.rttUs)} RTT`;
  const estimate = `estimate ${trips} + ${formatCount(doc.run.n)} × ${formatUs(e.serviceUs)} in Redis = ${formatUs(e.estimateUs)}`;
  const each = e.roundTripsMeasured > 0 ? `${plural(e.roundTripsMeasured, 'round trip')} of ${formatUs(e.awaitedUs / e.roundTripsMeasured)}` : 'no round trips';
  return `${measured} · ${estimate} covers only the replies awaited and Redis executing: ${each} against the ${formatUs(e.rttUs)} PING RTT before t0`;
}

/** Remaining time from progress so far, or undefined before the first reply gives a rate. */
export function etaUs(progress: { n: number; replied: number; lastUs: number }): number | undefined {
  if (progress.replied === 0 || progress.lastUs === 0) return undefined;
  return (progress.lastUs / progress.replied) * (progress.n - progress.replied);
}

/** The connection's RTT without the added delay, from a measured trace (never below 1 µs). */
export function baseRttUs(doc: TraceDocument | undefined): number {
  if (!doc) return DEFAULT_BASE_RTT_US;
  return Math.max(1, doc.rtt.measuredMinUs - doc.rtt.addedMs * 1000);
}
