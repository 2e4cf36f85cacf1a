// The annotation under each run: its measured time in the parts it went to (trace/derive/run-phases.ts), beside
// what round trips and Redis's own service time account for — N × RTT + N × service (sequential),
// RTT + N × service (pipeline) or ⌈N / C⌉ × RTT + N × service (chunked: one round trip per pipeline of C).
// The estimate covers only the replies awaited and Redis executing, so the line sets it beside those
// two parts, measured, and says how many round trips they were and how long each took against the PING
// RTT; the client's own parts (before the first write, between replies, after the last read) are the
// rest of the difference. Every input is a measurement from the trace: RTT from the PINGs before t0,
// service time from INFO commandstats, the parts and round trips at the client socket.
import { runPhases } from '../../../trace/derive/run-phases.ts';
import type { CommandName, RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';
import { formatCount, formatUs, plural } from './number-format.ts';
import { clientPartsText, phasesTotalText } from './phase-text.ts';
import { pipelineCount } from './run-label.ts';

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
  spec: { n: number; rttMs: number; modes: readonly RunMode[]; chunk?: number | undefined; command?: CommandName },
  baseRttUs: number,
): LongRun | null {
  const mode = spec.modes.includes('sequential') ? 'sequential' : spec.modes.includes('chunked') && spec.chunk !== undefined ? 'chunked' : null;
  if (mode === null) return null;
  // A GET-COMPUTE-SET step is two round trips (its GET, then its SET) when run one at a time.
  const perOperation = spec.command === 'GET-COMPUTE-SET' && mode === 'sequential' ? 2 : 1;
  const roundTrips = roundTripsOf({ mode, n: spec.n, chunk: spec.chunk }) * perOperation;
  const expectedUs = expectedSequentialUs(roundTrips, spec.rttMs, baseRttUs);
  if (expectedUs <= LONG_RUN_US) return null;
  const tripsInAMinute = Math.floor(SUGGESTED_RUN_US / (expectedUs / roundTrips));
  const commandsPerTrip = mode === 'chunked' ? spec.chunk! : 1 / perOperation;
  return { mode, roundTrips, expectedUs, suggestedN: Math.max(1, Math.floor(tripsInAMinute * commandsPerTrip)) };
}

/** The connection's RTT without the added delay, from a measured trace (never below 1 µs). */
export function baseRttUs(doc: TraceDocument | undefined): number {
  if (!doc) return DEFAULT_BASE_RTT_US;
  return Math.max(1, doc.rtt.measuredMinUs - doc.rtt.addedMs * 1000);
}
