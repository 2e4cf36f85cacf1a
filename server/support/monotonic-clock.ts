// Every time in a trace is microseconds since the run's t0 on one monotonic clock
// (process.hrtime.bigint, in ns): the probes, the memory sampler and the executors all read it here.
/** Microseconds from t0 on the monotonic clock, rounded; rounding keeps the order of events. */
export function microsSince(t0: bigint, now: bigint = process.hrtime.bigint()): number {
  return Math.round(Number(now - t0) / 1000);
}

/**
 * A run's t0, shared by everything that time-stamps the run. Probes are attached before t0 and read
 * `t0` at each event; start() is the last thing the executor does before it calls the client for the
 * first command, so nothing of Pipescope's own falls between t0 and that call.
 */
export class RunClock {
  /** process.hrtime.bigint() at t0, ns; 0n until start(). */
  t0 = 0n;

  start(): bigint {
    this.t0 = process.hrtime.bigint();
    return this.t0;
  }

  /** µs since t0 (negative before it). */
  micros(now: bigint = process.hrtime.bigint()): number {
    return microsSince(this.t0, now);
  }
}
