// The run's own connection to Redis and, when the run adds delay, the delay proxy it goes through:
// opened first and closed last (the connection, then the proxy behind it). It also measures the round
// trip the run's commands will wait for, before t0, on that very connection.
import { percentile } from '../../../trace/derive/trace-stats.ts';
import { openDriver } from '../../drivers/open-driver.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import { DelayProxy } from '../../probes/delay-proxy.ts';
import { redisAddress } from '../../probes/monitor-probe.ts';
import { targetHostPort, viaProxy, type RedisTarget } from '../../redis/redis-target.ts';
import { microsSince } from '../../support/monotonic-clock.ts';
import { RunCancelledError } from '../../support/run-cancelled-error.ts';
import { proxied, type RunPlan } from './run-plan.ts';

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

/** Round trips of PING on the run's own connection, before t0: what one command's wait is made of. */
export async function measureRtt(driver: RunDriver, samples: number): Promise<{ measuredMinUs: number; measuredMedianUs: number; samples: number }> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = process.hrtime.bigint();
    await driver.ping();
    times.push(microsSince(started));
  }
  times.sort((a, b) => a - b);
  return { measuredMinUs: times[0]!, measuredMedianUs: percentile(times, 50), samples };
}
