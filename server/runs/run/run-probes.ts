// Everything a run opens besides its own connection to watch it or to share Redis with it: the memory
// sampler, the server tracer (MONITOR, strace), the held-connection probe's second connection and the
// neighbour client; and the readings taken before the run that its deltas start from (the kernel's
// TCP figures, INFO). One object, filled as each is opened, so one close() ends whatever was opened,
// in order, whether the run completed, failed half-way through its set-up, or was cancelled.
import type { Redis } from 'ioredis';
import type { Socket } from 'node:net';
import { HeldConnectionProbe } from '../../probes/held-connection-probe.ts';
import { readKernelTcp, type TcpReading } from '../../probes/kernel-tcp-probe.ts';
import { MemorySampler } from '../../probes/memory-sampler.ts';
import { connectNeighbor, type NeighborClient } from '../../probes/neighbor-client.ts';
import { readServerInfo } from '../../probes/server-counters.ts';
import { SchedstatReader } from '../../probes/server-cpu.ts';
import { microsSince } from '../../support/monotonic-clock.ts';
import { ServerTracer } from '../../probes/server-tracer.ts';
import type { RunDriver } from '../../drivers/run-driver.ts';
import type { RedisTarget } from '../../redis/redis-target.ts';
import type { RunPlan } from './run-plan.ts';

export class RunProbes {
  sampler: MemorySampler | undefined;
  tracer: ServerTracer | undefined;
  /** The second connection of the held-connection probe. */
  held: HeldConnectionProbe | undefined;
  /** Another client on its own connection, from before t0 to after the run. */
  neighbor: NeighborClient | undefined;
  /** The kernel's count of the private redis-server's CPU time (server-cpu.ts); undefined for any other Redis. */
  schedstat: SchedstatReader | undefined;
  /** The kernel's TCP figures for the run's socket before the run (`ss`), when asked for. */
  tcpBefore: TcpReading | undefined;
  /** Redis's INFO before the run, as text: read last before t0, parsed after the run. */
  infoBefore: string | undefined;
  /** Wall time (µs) each probe took to set up before t0 (and, for ss, to read after the run). */
  readonly setupUs = { memory: 0, tracer: 0, kernelTcp: 0 };

  /**
   * Opens what the plan asks for, each ready before t0: the sampler's baseline taken, MONITOR's +OK in,
   * the neighbour issuing (its latency before t0 is its baseline).
   */
  async open(control: Redis, target: RedisTarget, plan: RunPlan, run: RunDriver, hopCompensationNs: number): Promise<void> {
    const { probes, id, namespace } = plan;
    // Sampled directly, not through the delay proxy: the samples should not wait for the run's RTT.
    if (probes.memory) {
      const started = process.hrtime.bigint();
      const runClientId = await run.clientId();
      this.sampler = await MemorySampler.connect(target, `pipescope-memory-${id}`);
      await this.sampler.start(runClientId); // the baseline, before the first INFO snapshot
      this.setupUs.memory = microsSince(started);
    }
    // MONITOR starts before the first INFO snapshot, so its own command is not taken for traffic.
    if (probes.monitor || probes.strace) {
      const started = process.hrtime.bigint();
      this.tracer = await ServerTracer.start(control, target, { monitor: probes.monitor, strace: probes.strace });
      this.setupUs.tracer = microsSince(started);
    }
    // Pipescope's own redis-server: its CPU time counted by the kernel, at no cost to it.
    if (target.embedded && target.pid) this.schedstat = SchedstatReader.open(target.pid);
    if (probes.heldConnection) this.held = await HeldConnectionProbe.open(target, `pipescope-held-${id}`, { ...plan.network, hopCompensationNs });
    const neighbor = plan.neighbor;
    if (neighbor) this.neighbor = await connectNeighbor(target, id, namespace, neighbor.command, neighbor.ratePerSec, neighbor.valueBytes);
    await this.neighbor?.go(); // issuing from now on; resolves once its latency before t0 (the baseline) is in
  }

  /** The kernel's TCP figures the run's delta starts from (`ss` on the run's socket), if asked for. */
  async readTcpBefore(socket: Socket, plan: RunPlan): Promise<void> {
    if (!plan.probes.kernelTcp) return;
    const started = process.hrtime.bigint();
    this.tcpBefore = await readKernelTcp(socket);
    this.setupUs.kernelTcp += microsSince(started);
  }

  /** Redis's INFO the run's deltas start from, read as text: the last step before t0 (see measure-run.ts). */
  async readInfoBefore(control: Redis, plan: RunPlan): Promise<void> {
    this.infoBefore = await readServerInfo(control, plan.namespace);
  }

  /** Pipescope's own other connections during the run, by address: labelled as such, never counted as other clients. */
  ownSources(): Map<string, string> {
    const own = new Map<string, string>();
    if (this.sampler?.address) own.set(this.sampler.address, 'memory sampler');
    if (this.held) own.set(this.held.address, 'held-connection probe');
    return own;
  }

  /** A Cancel: the neighbour stops issuing now (safe from an abort handler). */
  halt(): void {
    this.neighbor?.halt();
  }

  /** Closes whatever was opened: the tracer, the neighbour (its command in flight answered), the held connection, the sampler. */
  async close(): Promise<void> {
    await this.tracer?.stop().catch(() => {});
    await this.neighbor?.close(); // its command in flight answered: nothing of it reaches Redis after the keys go
    await this.held?.close();
    this.sampler?.close();
    this.schedstat?.close();
  }
}
