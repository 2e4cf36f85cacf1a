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

/** A sequential run expected to take longer than this asks the user first. */
export const LONG_RUN_US = 120_000_000;
/** What "reduce N" aims for instead: about a minute. */
const SUGGESTED_RUN_US = 60_000_000;
/** Base RTT to assume before any run has measured one (loopback is ~50–200 µs). */
export const DEFAULT_BASE_RTT_US = 100;

export interface LongRun {
  expectedUs: number;
  /** An N that should take about a minute at the same RTT. */
  suggestedN: number;
}

/**
 * Whether a run asks for confirmation: only its sequential part pays N round trips. baseRttUs is the
 * connection's own RTT without added delay, from the latest measured trace.
 */
export function longRunCheck(spec: { n: number; rttMs: number; modes: readonly string[] }, baseRttUs: number): LongRun | null {
  if (!spec.modes.includes('sequential')) return null;
  const expectedUs = expectedSequentialUs(spec.n, spec.rttMs, baseRttUs);
  if (expectedUs <= LONG_RUN_US) return null;
  const perCommandUs = expectedUs / spec.n;
  return { expectedUs, suggestedN: Math.max(1, Math.floor(SUGGESTED_RUN_US / perCommandUs)) };
}

/** The connection's RTT without the added delay, from a measured trace (never below 1 µs). */
export function baseRttUs(doc: TraceDocument | undefined): number {
  if (!doc) return DEFAULT_BASE_RTT_US;
  return Math.max(1, doc.rtt.measuredMinUs - doc.rtt.addedMs * 1000);
}
