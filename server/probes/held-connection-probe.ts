// A pipeline holds its connection until it completes (docs/what-pipelining-does.md). The moment the
// run's last work command has been handed to the socket (the pipeline, or the last chunk of a chunked
// run; the tick after that write), two PINGs are issued at once: one on the run's own connection (it
// queues behind every reply: the run's last wire command, wire-layout.ts) and one on a second connection
// opened before t0. Their reply times, on the run's clock, are the trace's heldConnection.
//
// The second connection takes the same road as the run: through a delay proxy of its own with the same
// added RTT when the run has one (the run's proxy records every connection through it), else straight to
// Redis. Its PING is one command, one read and one write event in the run's INFO deltas (OWN_TRAFFIC).
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import type { HeldConnection } from '../../trace/format/trace-format.ts';
import { openConnection } from '../redis/connect-failure.ts';
import { connect, targetHostPort, viaProxy, type RedisTarget } from '../redis/redis-target.ts';
import type { RunClock } from '../support/monotonic-clock.ts';
import { DelayProxy, type DelaySettings } from './delay-proxy.ts';
import type { SocketProbe } from './socket-probe.ts';
import { redisAddress } from './monitor-probe.ts';

/** What the other connection's PING adds to Redis's INFO counters between the run's snapshots. */
export const HELD_CONNECTION_OWN_TRAFFIC = { reads: 1, writes: 1, commands: 1 } as const;

export class HeldConnectionProbe {
  private issuedUs: number | undefined;
  private samePing: Promise<void> | undefined;
  private otherReplied: Promise<number> | undefined;

  private constructor(
    private readonly other: Redis,
    private readonly proxy: DelayProxy | undefined,
  ) {}

  /** The second connection as Redis (MONITOR) names it: its own proxy's upstream end, or its local address. */
  get address(): string {
    return this.proxy ? (this.proxy.upstreamAddresses[0] ?? '') : redisAddress(this.other.stream?.localAddress, this.other.stream?.localPort);
  }

  /** Opens the second connection (before t0), through its own delay proxy when the run has added delay. */
  static async open(target: RedisTarget, name: string, delay: DelaySettings): Promise<HeldConnectionProbe> {
    const proxy = delay.addedRttMs > 0 || delay.jitterMs > 0 ? await DelayProxy.start(targetHostPort(target), delay) : undefined;
    const via = proxy ? viaProxy(target, proxy) : target;
    const other = connect(via, name);
    try {
      await openConnection(other, via);
    } catch (error) {
      await proxy?.close();
      throw error;
    }
    return new HeldConnectionProbe(other, proxy);
  }

  /**
   * Issues both PINGs once `workCommands` commands have been written on the run's socket: `ping` is the
   * run driver's (the same connection). Nothing is recorded if the run never gets that far.
   */
  arm(probe: SocketProbe, clock: RunClock, workCommands: number, ping: () => Promise<void>): void {
    probe.whenWritten(workCommands, () => {
      this.issuedUs = clock.micros();
      this.samePing = ping();
      this.samePing.catch(() => {}); // a cancelled run: awaited only when it completed
      // Timed when the reply's bytes arrive on the other socket, as the socket probe times the run's.
      const socket = this.other.stream as Socket;
      this.otherReplied = new Promise<number>((resolve) => socket.prependOnceListener('data', () => resolve(clock.micros())));
      this.other.ping().catch(() => {});
    });
  }

  /**
   * After the run's call returned: waits for both PONGs. `sameRepliedUs` is when the run's socket read
   * the reply that completed its last wire command (the held PING), from the trace's reads.
   */
  async finish(sameRepliedUs: () => number): Promise<HeldConnection> {
    if (this.issuedUs === undefined || !this.samePing || !this.otherReplied) throw new Error('The held-connection PINGs were never issued.');
    await this.samePing;
    const otherConnectionRepliedUs = await this.otherReplied;
    return { issuedUs: this.issuedUs, sameConnectionRepliedUs: sameRepliedUs(), otherConnectionRepliedUs };
  }

  /** Resolves once the same-connection PING is answered: its outcome is recorded after the work's own. */
  async sameConnectionPing(): Promise<void> {
    if (!this.samePing) throw new Error('The held-connection PINGs were never issued.');
    await this.samePing;
  }

  async close(): Promise<void> {
    this.other.disconnect();
    await this.proxy?.close();
  }
}
