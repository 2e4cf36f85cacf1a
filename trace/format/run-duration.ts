// What a request is expected to take before it runs, from the round trips it must wait for: the page
// asks its two-minute question with this (longRunCheck), and the backend applies the same rule and its
// hard bound (server/app/access/duration-bound.ts), so both ends say the same thing about one request.
// Every figure is a lower estimate: round trips × (the connection's own RTT + the added delay), the
// pauses asked for, and a microsecond per command for the client and Redis; a run may take longer
// (big values, strace, a busy machine), never much shorter.
import type { CommandName, RunMode } from './trace-format.ts';
import { MAX_REPEATS, REPEAT_BELOW_US, SINGLE_MODE_ROUNDS, UNTIL_CERTAIN, clusterVariants, type ClusterCompare, type Repeats } from './run-request.ts';

/** A run whose round trips are expected to take longer than this asks the user first (µs). */
export const LONG_RUN_US = 120_000_000;
/** What "reduce N" aims for instead: about a minute (µs). */
export const SUGGESTED_RUN_US = 60_000_000;
/** Base RTT to assume before any run has measured one (µs; loopback is ~50–200 µs). */
export const DEFAULT_BASE_RTT_US = 100;
/** The least a command costs the client and Redis together (µs): a loopback pipeline does ~1–3 µs each. */
export const EXPECTED_US_PER_COMMAND = 1;

/** Round trips a run waits for: each command's (sequential), the batch's (pipeline), each pipeline's (chunked). */
export function roundTripsOf(run: { mode: RunMode; n: number; chunk?: number | undefined }): number {
  if (run.mode === 'sequential') return run.n;
  if (run.mode === 'chunked' && run.chunk !== undefined) return Math.ceil(run.n / Math.max(1, run.chunk));
  return 1;
}

/** Before a run: how long `roundTrips` round trips (a sequential run's n) take at this added RTT, given a base RTT measured earlier. */
export function expectedSequentialUs(roundTrips: number, addedRttMs: number, baseRttUs: number): number {
  return roundTrips * (addedRttMs * 1000 + baseRttUs);
}

export interface LongRun {
  /** The run of the request that waits for the most round trips. */
  mode: 'sequential' | 'chunked';
  roundTrips: number;
  expectedUs: number;
  /** An N that should take about a minute at the same RTT. */
  suggestedN: number;
}

type DurationSpec = {
  n: number;
  rttMs: number;
  modes: readonly RunMode[];
  chunk?: number | undefined;
  command?: CommandName;
  chunkPauseMs?: number | undefined;
  repeats?: Repeats | undefined;
  clusterCompare?: ClusterCompare | undefined;
};

/** Round trips of one mode's run; a GET-COMPUTE-SET step is two (its GET, then its SET) when run one at a time. */
function modeRoundTrips(spec: DurationSpec, mode: RunMode): number {
  const perOperation = spec.command === 'GET-COMPUTE-SET' && mode === 'sequential' ? 2 : 1;
  return roundTripsOf({ mode, n: spec.n, chunk: spec.chunk }) * perOperation;
}

/**
 * Whether a run asks for confirmation: its sequential part pays N round trips, a chunked part one per
 * pipeline; one pipeline pays one. baseRttUs is the connection's own RTT without added delay, from the
 * latest measured trace.
 */
export function longRunCheck(spec: DurationSpec, baseRttUs: number): LongRun | null {
  const mode = spec.modes.includes('sequential') ? 'sequential' : spec.modes.includes('chunked') && spec.chunk !== undefined ? 'chunked' : null;
  if (mode === null) return null;
  const perOperation = spec.command === 'GET-COMPUTE-SET' && mode === 'sequential' ? 2 : 1;
  const roundTrips = modeRoundTrips(spec, mode);
  const expectedUs = expectedSequentialUs(roundTrips, spec.rttMs, baseRttUs);
  if (expectedUs <= LONG_RUN_US) return null;
  const tripsInAMinute = Math.floor(SUGGESTED_RUN_US / (expectedUs / roundTrips));
  const commandsPerTrip = mode === 'chunked' ? spec.chunk! : 1 / perOperation;
  return { mode, roundTrips, expectedUs, suggestedN: Math.max(1, Math.floor(tripsInAMinute * commandsPerTrip)) };
}

/** One mode's run, expected (µs): its round trips, its chunk pauses, a microsecond per command. */
export function expectedRunUs(spec: DurationSpec, mode: RunMode, baseRttUs: number): number {
  const roundTrips = modeRoundTrips(spec, mode);
  const pauses = mode === 'chunked' && spec.chunk !== undefined ? Math.max(0, roundTrips - 1) * (spec.chunkPauseMs ?? 0) * 1000 : 0;
  return expectedSequentialUs(roundTrips, spec.rttMs, baseRttUs) + pauses + spec.n * EXPECTED_US_PER_COMMAND;
}

/**
 * A whole request, expected (µs): each mode once, and again for each repeat unless a run of the first
 * round is expected to take REPEAT_BELOW_US or more (the backend does not repeat those). "Until certain"
 * counts as its most rounds: a bound must hold however the verdict comes out.
 */
export function expectedRequestUs(spec: DurationSpec, baseRttUs: number): number {
  // A compared request runs a mode once per variant (a hash tag or a serial split: alike in round trips here).
  const runs = spec.modes.flatMap((mode) => clusterVariants(spec, mode).map(() => expectedRunUs(spec, mode, baseRttUs)));
  const round = runs.reduce((sum, us) => sum + us, 0);
  const rounds = spec.repeats === UNTIL_CERTAIN ? (runs.length === 1 ? SINGLE_MODE_ROUNDS : MAX_REPEATS) : (spec.repeats ?? 1);
  return Math.max(...runs) >= REPEAT_BELOW_US ? round : round * rounds;
}
