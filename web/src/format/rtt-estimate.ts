// The annotation under each run: its measured total beside what round trips and Redis's own service
// time account for — N × RTT + N × service (sequential) or RTT + N × service (pipeline). Every input
// is a measurement from the trace: RTT from the PINGs before t0, service time from INFO commandstats.
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { formatCount, formatUs } from './number-format.ts';

export interface RttEstimate {
  /** Round trips the run had to wait for: n sequentially, 1 for a pipeline. */
  roundTrips: number;
  rttUs: number;
  /** Redis's service time per command (INFO commandstats usec delta / n). */
  serviceUs: number;
  estimateUs: number;
  measuredUs: number;
}

export function rttEstimate(doc: TraceDocument): RttEstimate {
  const { n, mode } = doc.run;
  const roundTrips = mode === 'sequential' ? n : 1;
  const rttUs = doc.rtt.measuredMinUs;
  const serviceUs = doc.counts.server.execUs / n;
  return { roundTrips, rttUs, serviceUs, estimateUs: roundTrips * rttUs + n * serviceUs, measuredUs: doc.totals.durationUs };
}

/** "measured 2.01 s ≈ 8 × 251 ms RTT + 8 × 1.5 µs in Redis = 2.01 s" */
export function rttEstimateText(doc: TraceDocument): string {
  const e = rttEstimate(doc);
  const trips = e.roundTrips === 1 ? `1 × ${formatUs(e.rttUs)} RTT` : `${formatCount(e.roundTrips)} × ${formatUs(e.rttUs)} RTT`;
  return `measured ${formatUs(e.measuredUs)} · estimate ${trips} + ${formatCount(doc.run.n)} × ${formatUs(e.serviceUs)} in Redis = ${formatUs(e.estimateUs)}`;
}

/** Before a run: how long a sequential run should take at this added RTT, given a base RTT measured earlier. */
export function expectedSequentialUs(n: number, addedRttMs: number, baseRttUs: number): number {
  return n * (addedRttMs * 1000 + baseRttUs);
}

/** Remaining time from progress so far, or undefined before the first reply gives a rate. */
export function etaUs(progress: { n: number; replied: number; lastUs: number }): number | undefined {
  if (progress.replied === 0 || progress.lastUs === 0) return undefined;
  return (progress.lastUs / progress.replied) * (progress.n - progress.replied);
}
