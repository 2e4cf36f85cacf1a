// The annotation under each run: its measured total beside what round trips and Redis's own service
// time account for — N × RTT + N × service (sequential), RTT + N × service (pipeline) or
// ⌈N / C⌉ × RTT + N × service (chunked: one round trip per pipeline of C). Every input is a measurement
// from the trace: RTT from the PINGs before t0, service time from INFO commandstats.
import type { RunMode, TraceDocument } from '../../../trace/trace-format.ts';
import { formatCount, formatUs } from './number-format.ts';
import { pipelineCount } from './run-label.ts';

export interface RttEstimate {
  /** Round trips the run had to wait for: n sequentially, 1 for a pipeline, one per pipeline when chunked. */
  roundTrips: number;
  rttUs: number;
  /** Redis's service time per command (INFO commandstats usec delta / n). */
  serviceUs: number;
  estimateUs: number;
  measuredUs: number;
}

/** Round trips a run waits for: each command's (sequential), the batch's (pipeline), each pipeline's (chunked). */
export function roundTripsOf(run: { mode: RunMode; n: number; chunk?: number | undefined }): number {
  if (run.mode === 'sequential') return run.n;
  if (run.mode === 'chunked' && run.chunk !== undefined) return pipelineCount(run.n, run.chunk);
  return 1;
}

export function rttEstimate(doc: TraceDocument): RttEstimate {
  const { n } = doc.run;
  const roundTrips = roundTripsOf(doc.run);
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

/** Before a run: how long `roundTrips` round trips (a sequential run's n) take at this added RTT, given a base RTT measured earlier. */
export function expectedSequentialUs(roundTrips: number, addedRttMs: number, baseRttUs: number): number {
  return roundTrips * (addedRttMs * 1000 + baseRttUs);
}

/** Remaining time from progress so far, or undefined before the first reply gives a rate. */
export function etaUs(progress: { n: number; replied: number; lastUs: number }): number | undefined {
  if (progress.replied === 0 || progress.lastUs === 0) return undefined;
  return (progress.lastUs / progress.replied) * (progress.n - progress.replied);
}

/** A run whose round trips are expected to take longer than this asks the user first. */
export const LONG_RUN_US = 120_000_000;
/** What "reduce N" aims for instead: about a minute. */
const SUGGESTED_RUN_US = 60_000_000;
/** Base RTT to assume before any run has measured one (loopback is ~50–200 µs). */
export const DEFAULT_BASE_RTT_US = 100;

export interface LongRun {
  /** The run of the request that waits for the most round trips. */
  mode: 'sequential' | 'chunked';
  roundTrips: number;
  expectedUs: number;
  /** An N that should take about a minute at the same RTT. */
  suggestedN: number;
}

/**
 * Whether a run asks for confirmation: its sequential part pays N round trips, a chunked part one per
 * pipeline; one pipeline pays one. baseRttUs is the connection's own RTT without added delay, from the
 * latest measured trace.
 */
export function longRunCheck(
  spec: { n: number; rttMs: number; modes: readonly RunMode[]; chunk?: number | undefined },
  baseRttUs: number,
): LongRun | null {
  const mode = spec.modes.includes('sequential') ? 'sequential' : spec.modes.includes('chunked') && spec.chunk !== undefined ? 'chunked' : null;
  if (mode === null) return null;
  const roundTrips = roundTripsOf({ mode, n: spec.n, chunk: spec.chunk });
  const expectedUs = expectedSequentialUs(roundTrips, spec.rttMs, baseRttUs);
  if (expectedUs <= LONG_RUN_US) return null;
  const tripsInAMinute = Math.floor(SUGGESTED_RUN_US / (expectedUs / roundTrips));
  const commandsPerTrip = mode === 'chunked' ? spec.chunk! : 1;
  return { mode, roundTrips, expectedUs, suggestedN: Math.max(1, tripsInAMinute * commandsPerTrip) };
}

/** The connection's RTT without the added delay, from a measured trace (never below 1 µs). */
export function baseRttUs(doc: TraceDocument | undefined): number {
  if (!doc) return DEFAULT_BASE_RTT_US;
  return Math.max(1, doc.rtt.measuredMinUs - doc.rtt.addedMs * 1000);
}
