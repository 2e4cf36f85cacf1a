// The run's own connection to Redis and, when the run adds delay, the delay proxy it goes through:
// opened first and closed last (the connection, then the proxy behind it). It also measures the round
// trip the run's commands will wait for, before t0, on that very connection, and calibrates the
// proxy's hop (delay-proxy.ts).
import { percentile } from '../../../trace/derive/trace-stats.ts';
import { openDriver } from '../../drivers/open-driver.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import type { Redis } from 'ioredis';
import type { Rtt } from '../../../trace/format/trace-format.ts';
import { COMPENSATE_BELOW_MS, DelayProxy } from '../../probes/delay-proxy.ts';
import { redisAddress } from '../../probes/monitor-probe.ts';
import { targetHostPort, viaProxy, type RedisTarget } from '../../redis/redis-target.ts';
import { RunCancelledError } from '../../support/run-cancelled-error.ts';
import { microsSince } from '../../support/monotonic-clock.ts';
import { proxied, type NetworkPlan, type RunPlan } from './run-plan.ts';

export class RunConnection {
  proxy: DelayProxy | undefined;
  driver: RunDriver | undefined;
  /** The run connection as Redis sees it (host:port): the proxy's end when the run goes through one. */
  source: string | undefined;

  /** Opens the proxy (if any) and the run's connection through it; a Cancel meanwhile rejects after. */
  async open(target: RedisTarget, plan: RunPlan, signal: AbortSignal | undefined): Promise<RunDriver> {
    if (proxied(plan.network)) this.proxy = await DelayProxy.start(targetHostPort(target), plan.network);
    const proxy = this.proxy;
    this.driver = await openDriver(plan.engine.name, proxy ? viaProxy(target, proxy) : target, `pipescope-run-${plan.id}`, { pipelineSlice: plan.engine.pipelineSlice });
    if (signal?.aborted) throw new RunCancelledError('Run cancelled'); // a Cancel while connecting found no driver to abort
    this.source = proxy ? proxy.upstreamAddresses[0] : redisAddress(this.driver.socket.localAddress, this.driver.socket.localPort);
    return this.driver;
  }

  /** A Cancel: the run's socket destroyed at once, nothing more reaches Redis. */
  abort(): void {
    this.driver?.abort();
  }

  /** `finished`: the run completed, so its socket may close gracefully; otherwise it is destroyed. */
  async close(finished: boolean): Promise<void> {
    if (finished) this.driver?.disconnect();
    else this.driver?.abort();
    await this.proxy?.close();
  }
}

/** PING round trips for the RTT: fewer on a slow link, more where the delay's precision is shown. */
export function rttSamples(addedRttMs: number): number {
  return addedRttMs >= 50 ? 3 : addedRttMs > 0 && addedRttMs <= 5 ? 11 : 5;
}

/**
 * Round trips of PING on the run's own connection, before t0: what one command's wait is made of.
 * Through the delay proxy, each is taken beside one on the direct `control` connection, so the trace
 * says the round trip added as measured (mechanism, p10–p90, direct median), after the proxy's hop has
 * been calibrated (calibrateHop).
 */
export async function measureRtt(driver: RunDriver, network: NetworkPlan, proxy: DelayProxy | undefined, control: Redis): Promise<Rtt> {
  const samples = rttSamples(network.addedRttMs);
  const head = { addedMs: network.addedRttMs, jitterMs: network.jitterMs };
  if (!proxy) {
    const times = (await roundTrips(samples, () => driver.ping())).sort((a, b) => a - b);
    return { ...head, measuredMinUs: times[0]!, measuredMedianUs: percentile(times, 50), samples };
  }
  const { via, direct } = await besideDirect(samples, driver, control);
  return {
    ...head, measuredMinUs: via[0]!, measuredMedianUs: percentile(via, 50), samples,
    mechanism: 'proxy', measuredP10Us: percentile(via, 10), measuredP90Us: percentile(via, 90), directMedianUs: percentile(direct, 50),
    hopCompensationUs: proxy.hopCompensationNs / 1000,
  };
}

/**
 * What the proxy takes off each hold so that a round trip gains what was asked, before t0: PINGs
 * through it, holding as asked, each beside one on the direct connection; half of (the difference of
 * their lower quartiles − the added RTT) per direction. That is the hop's own cost (two more sockets, this
 * thread's turn: ~10 µs each way here) and the wake-up of a Redis that idled through the hold, which
 * a direct round trip does not pay. At most MAX_COMPENSATION of the one-way delay, never below zero;
 * none at and above COMPENSATE_BELOW_MS of added RTT, where these µs do not show.
 */
export async function calibrateHop(proxy: DelayProxy, network: NetworkPlan, driver: RunDriver, control: Redis): Promise<void> {
  if (network.addedRttMs >= COMPENSATE_BELOW_MS) return;
  const { via, direct } = await besideDirect(CALIBRATION_PINGS, driver, control);
  // Lower quartiles: the excess every round trip pays, not the spikes of a loaded machine (a thread
  // that lost its CPU for milliseconds), which a median of eleven can still be made of.
  const excessUs = percentile(via, 25) - percentile(direct, 25) - network.addedRttMs * 1000;
  const oneWayUs = (network.addedRttMs * 1000) / 2;
  proxy.hopCompensationNs = Math.round(Math.min(oneWayUs * MAX_COMPENSATION, Math.max(0, excessUs / 2)) * 1000);
}

const CALIBRATION_PINGS = 11;
/**
 * The compensation is at most this share of each hold: however a loaded machine skews the calibration,
 * a round trip through the proxy never comes out more than 5 % short of what was asked.
 */
const MAX_COMPENSATION = 0.05;

/** `samples` PINGs through the run's connection, each followed by one on the direct connection; µs, ascending. */
async function besideDirect(samples: number, driver: RunDriver, control: Redis): Promise<{ via: number[]; direct: number[] }> {
  const via: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < samples; i++) {
    via.push(...(await roundTrips(1, () => driver.ping())));
    direct.push(...(await roundTrips(1, () => control.ping())));
  }
  return { via: via.sort((a, b) => a - b), direct: direct.sort((a, b) => a - b) };
}

async function roundTrips(count: number, ping: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    await ping();
    times.push(microsSince(started));
  }
  return times;
}
