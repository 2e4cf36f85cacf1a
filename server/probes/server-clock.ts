// Puts Redis's clock on the client's: several TIME round trips, NTP-style. For each, the server's
// reading is taken to have happened at the midpoint of the request and the reply; the round trip
// with the smallest RTT wins, and half its RTT is the uncertainty. Works against a remote Redis too.
import type { Redis } from 'ioredis';

export interface ClockAlignment {
  /** Server epoch µs minus client monotonic µs (process.hrtime), at the same instant. */
  offsetUs: number;
  /** The true offset lies within ± this. */
  uncertaintyUs: number;
  samples: number;
}

const hrtimeUs = () => Number(process.hrtime.bigint() / 1000n);

export async function alignServerClock(connection: Redis, samples = 8): Promise<ClockAlignment> {
  let best: { offsetUs: number; rttUs: number } | undefined;
  for (let i = 0; i < samples; i++) {
    const sentUs = hrtimeUs();
    const [seconds, micros] = (await connection.time()) as [string | number, string | number];
    const receivedUs = hrtimeUs();
    const serverUs = Number(seconds) * 1_000_000 + Number(micros);
    const rttUs = receivedUs - sentUs;
    if (!best || rttUs < best.rttUs) best = { offsetUs: serverUs - (sentUs + receivedUs) / 2, rttUs };
  }
  if (!best) throw new Error('alignServerClock needs at least one sample');
  return { offsetUs: best.offsetUs, uncertaintyUs: best.rttUs / 2, samples };
}

/** A server epoch time (µs) as µs since the run's t0 on the client's clock. */
export function serverToTraceUs(serverEpochUs: number, clock: ClockAlignment, t0: bigint): number {
  return serverEpochUs - clock.offsetUs - Number(t0 / 1000n);
}
