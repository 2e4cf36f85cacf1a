// Every time in a trace is microseconds since the run's t0 on one monotonic clock
// (process.hrtime.bigint, in ns): the probes, the memory sampler and the executors all read it here.
/** Microseconds from t0 on the monotonic clock, rounded; rounding keeps the order of events. */
export function microsSince(t0: bigint, now: bigint = process.hrtime.bigint()): number {
  return Math.round(Number(now - t0) / 1000);
}
