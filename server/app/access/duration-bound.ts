// How long one request may hold the runner, decided before it joins the queue. The page asks before a
// run expected to take more than two minutes (trace/format/run-duration.ts longRunCheck); the backend
// applies the same rule, so a script that skips the page must say it confirmed (spec.confirmLongRun),
// and it refuses outright any request expected to take longer than the hard bound (--max-run-seconds),
// confirmed or not. The running request is stopped at that bound too (runs/run-queue.ts). Estimates
// use the RTT the backend last measured to its Redis (redis/redis-session.ts baseRttUs).
import type { ClientMessage } from '../../../trace/protocol/live-protocol.ts';
import { EXPECTED_US_PER_COMMAND, expectedRequestUs, longRunCheck } from '../../../trace/format/run-duration.ts';
import { sweepRoundTrips } from '../../../trace/format/sweep-format.ts';
import { durationText } from '../../support/duration-text.ts';
import { LIMIT_FLAGS } from './client-limits.ts';

type Request = Extract<ClientMessage, { type: 'run' | 'sweep' }>;

/** A request's expected duration (µs) at this base RTT: a run's modes and repeats, or a sweep's runs. */
export function expectedDurationUs(request: Request, baseRttUs: number): number {
  if (request.type === 'run') return expectedRequestUs(request.spec, baseRttUs);
  const { spec } = request;
  const commands = spec.perPoint * spec.repeats * spec.depths.length;
  const ours = sweepRoundTrips(spec) * (spec.rttMs * 1000 + baseRttUs) + commands * EXPECTED_US_PER_COMMAND;
  return spec.reference ? 2 * ours : ours; // redis-benchmark sends as many, through the same delay
}

/** Why this request may not run, in words for the person who asked; null = it may. */
export function durationRefusal(request: Request, baseRttUs: number, maxRunSeconds: number): string | null {
  const expectedUs = expectedDurationUs(request, baseRttUs);
  if (expectedUs > maxRunSeconds * 1e6) {
    return `This request would take about ${durationText(expectedUs)}; this server runs a request for at most ${durationText(maxRunSeconds * 1e6)} ` +
      `(${LIMIT_FLAGS.maxRunSeconds} ${maxRunSeconds}). Ask for fewer commands, fewer repeats or less added delay.`;
  }
  if (request.type !== 'run' || request.spec.confirmLongRun) return null;
  const long = longRunCheck(request.spec, baseRttUs);
  if (!long) return null;
  return `This request is long: its ${long.mode} run should take about ${durationText(long.expectedUs)} ` +
    `(${long.roundTrips.toLocaleString('en-US')} round trips at ${durationText(long.expectedUs / long.roundTrips)} each). ` +
    `Confirm it first (the page asks; a script sends confirmLongRun: true), or ask for N = ${long.suggestedN.toLocaleString('en-US')} (about a minute).`;
}
