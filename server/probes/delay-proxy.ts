// A real TCP hop that adds network delay: Pipescope's one deliberate artifice, always labelled.
// Each chunk is forwarded after the one-way delay (half the added RTT, plus optional jitter), with
// its bytes and boundaries as they were and in order: jitter can stretch gaps, never reorder, and
// nothing is coalesced or dropped. Redis sees the proxy's connection; the client sees delayed bytes.
//
// Precise at small delays, measured here (2 shared cores): a hold of up to POLL_WHOLE_HOLD_NS is
// polled (setImmediate) from start to end, because a timer wakes late by up to a millisecond and a
// thread that sleeps lets the CPU idle (the next wake-up costs tens of µs); a longer hold sleeps on a
// timer and polls its last POLL_LAST_NS. The hop itself (two more sockets, this thread's turn) adds
// ~10 µs each way at loopback speed, and a Redis that idled through a hold pays its wake-up on the
// next command, which a direct round trip does not: hopCompensationNs, calibrated per run before t0
// (runs/run/run-connection.ts calibrateHop), is taken off each hold, so the round trip gains what was
// asked, not that plus the hop. Under heavy load the tails are the machine's. The run's label says
// what was measured, beside what was asked.
//
// Bounded: each direction holds at most MAX_HELD_BYTES (its delay line plus its socket's unsent bytes);
// past that the sending side is paused until half of it has gone on, as a socket's own buffer would.
//
// Kernel delay (netem) is not used: it needs root (CAP_NET_ADMIN) and the sch_netem module, which
// this kind of machine does not have (`tc qdisc add … netem` says the qdisc kind is unknown).
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';

export interface DelaySettings {
  /** Added round-trip time, ms; each direction gets half. */
  addedRttMs: number;
  /** Each chunk's one-way delay varies by up to ± this many ms (never below zero). */
  jitterMs: number;
  /** Taken off each hold (ns): what the hop itself adds each way (see the top). */
  hopCompensationNs?: number;
}

export interface ProxiedChunk {
  direction: 'to-server' | 'to-client';
  /** When the proxy received the chunk and when it passed it on, on process.hrtime (ns). */
  receivedAt: bigint;
  forwardedAt: bigint;
  bytes: number;
}

/**
 * Holds up to this long are polled from start to end (ns): 1 ms, so added RTTs up to 2 ms. A longer
 * poll loses more than it gains on a busy machine: a thread that spins past its time slice is put
 * behind the others (added 5 ms measured +10.9 ms per round trip at load 15 when its 2.5 ms holds
 * were polled whole).
 */
export const POLL_WHOLE_HOLD_NS = 1_000_000n;
/** A longer hold sleeps on a timer until this long before its end, then polls (ns). */
const POLL_LAST_NS = 1_000_000n;
/** At and above this added RTT (ms) the hop's µs are under 0.1 % of it: no compensation. */
export const COMPENSATE_BELOW_MS = 20;
/** Bytes one direction may hold (in its delay line and its socket's send buffer) before its sender is paused. */
export const MAX_HELD_BYTES = 16 * 1024 * 1024;

export class DelayProxy {
  private readonly pairs = new Set<Socket>();
  /** The proxy's own side of each connection to Redis: the client address Redis sees. */
  private readonly upstreams: Socket[] = [];
  private readonly lines = new Set<DelayLine>();
  /** Called for every chunk forwarded, with its bytes, for tracing. */
  onChunk: ((chunk: ProxiedChunk, data: Buffer) => void) | undefined;
  /** Taken off each hold (ns); see the top. */
  hopCompensationNs = 0;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
  ) {}

  static async start(upstream: { host: string; port: number }, settings: DelaySettings, random: () => number = Math.random): Promise<DelayProxy> {
    const server = createServer();
    const host = '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, host, resolve);
    });
    const address = server.address();
    const proxy = new DelayProxy(server, host, typeof address === 'object' && address ? address.port : 0);
    proxy.hopCompensationNs = settings.hopCompensationNs ?? 0;
    server.on('connection', (client) => proxy.bridge(client, upstream, settings, random));
    return proxy;
  }

  /** host:port of each connection the proxy opened to Redis, as Redis sees its client. */
  get upstreamAddresses(): string[] {
    return this.upstreams.map((socket) => `${socket.localAddress}:${socket.localPort}`);
  }

  /** Bytes the proxy holds now, every connection and direction: each direction's delay line and unsent socket bytes. */
  get heldBytes(): number {
    let held = 0;
    for (const line of this.lines) held += line.heldBytes + line.unsentBytes;
    return held;
  }

  /** Open sockets, both sides counted: 0 once every connection through the proxy is closed. */
  get openSockets(): number {
    return this.pairs.size;
  }

  /** Destroys every connection through the proxy (what it holds is dropped) and stops listening; resolves once all are closed. */
  async close(): Promise<void> {
    const closed = [...this.pairs].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
    for (const socket of this.pairs) socket.destroy();
    await Promise.all([...closed, new Promise((resolve) => this.server.close(resolve))]);
  }

  private bridge(client: Socket, upstream: { host: string; port: number }, settings: DelaySettings, random: () => number): void {
    const server = tcpConnect(upstream.port, upstream.host);
    this.upstreams.push(server);
    client.setNoDelay(true);
    server.setNoDelay(true);
    for (const socket of [client, server]) {
      this.pairs.add(socket);
      socket.once('close', () => this.pairs.delete(socket));
    }
    const oneWayNs = (settings.addedRttMs * 1e6) / 2;
    const delayNs = () => {
      const jitter = settings.jitterMs > 0 ? (random() * 2 - 1) * settings.jitterMs * 1e6 : 0;
      return BigInt(Math.max(0, Math.round(oneWayNs + jitter - this.hopCompensationNs)));
    };
    const toServer = new DelayLine(server, 'to-server', delayNs, (chunk, data) => {
      limits[0].released();
      this.onChunk?.(chunk, data);
    });
    const toClient = new DelayLine(client, 'to-client', delayNs, (chunk, data) => {
      limits[1].released();
      this.onChunk?.(chunk, data);
    });
    const limits = [boundHeld(client, toServer, server), boundHeld(server, toClient, client)] as const;
    this.lines.add(toServer).add(toClient);
    client.once('close', () => this.lines.delete(toServer));
    server.once('close', () => this.lines.delete(toClient));
    client.on('data', (chunk) => {
      toServer.push(chunk);
      limits[0].pushed();
    });
    server.on('data', (chunk) => {
      toClient.push(chunk);
      limits[1].pushed();
    });
    // Either side closing closes the other once what it sent has been delivered.
    client.on('end', () => toServer.end());
    server.on('end', () => toClient.end());
    const destroyBoth = () => {
      client.destroy();
      server.destroy();
    };
    client.on('error', destroyBoth).on('close', () => toServer.end());
    server.on('error', destroyBoth).on('close', () => toClient.end());
  }
}

/**
 * Keeps one direction under MAX_HELD_BYTES: `source` is paused while its line and `destination`'s
 * unsent bytes hold that much, and resumed once they are under half of it.
 */
function boundHeld(source: Socket, line: DelayLine, destination: Socket): { pushed(): void; released(): void } {
  const held = () => line.heldBytes + line.unsentBytes;
  const released = () => {
    if (source.isPaused() && held() < MAX_HELD_BYTES / 2 && !source.destroyed) source.resume();
  };
  destination.on('drain', released);
  return {
    pushed: () => {
      if (!source.isPaused() && held() >= MAX_HELD_BYTES) source.pause();
    },
    released,
  };
}

/** One direction of the proxy (also the observing port's, server/observe/): a FIFO of chunks, each released at its due time, never before the one ahead. */
export class DelayLine {
  private readonly queue: { chunk: Buffer; receivedAt: bigint; dueAt: bigint }[] = [];
  private lastDueAt = 0n;
  private scheduled = false;
  private ending = false;
  /** Bytes received and not yet passed on. */
  heldBytes = 0;

  /** Bytes passed on to the destination socket that it has not sent yet. */
  get unsentBytes(): number {
    return this.destination.writableLength;
  }

  constructor(
    private readonly destination: Socket,
    private readonly direction: ProxiedChunk['direction'],
    private readonly delayNs: () => bigint,
    private readonly report: (chunk: ProxiedChunk, data: Buffer) => void,
  ) {}

  push(chunk: Buffer): void {
    const receivedAt = process.hrtime.bigint();
    this.heldBytes += chunk.length;
    const due = receivedAt + this.delayNs();
    // Jitter may make a later chunk "due" earlier; it waits for the one ahead instead (no reordering).
    this.lastDueAt = due > this.lastDueAt ? due : this.lastDueAt;
    this.queue.push({ chunk, receivedAt, dueAt: this.lastDueAt });
    this.schedule();
  }

  end(): void {
    this.ending = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled) return;
    const head = this.queue[0];
    if (!head) {
      if (this.ending && !this.destination.destroyed) this.destination.end();
      return;
    }
    this.scheduled = true;
    const waitNs = head.dueAt - process.hrtime.bigint();
    const wake = () => {
      this.scheduled = false;
      this.release();
    };
    // A hold that began short is polled to its end; a long one sleeps until its last POLL_LAST_NS.
    const polled = head.dueAt - head.receivedAt <= POLL_WHOLE_HOLD_NS || waitNs <= POLL_LAST_NS;
    if (polled) setImmediate(wake);
    else setTimeout(wake, Number((waitNs - POLL_LAST_NS) / 1_000_000n));
  }

  private release(): void {
    const now = process.hrtime.bigint();
    while (this.queue[0] && this.queue[0].dueAt <= now) {
      const { chunk, receivedAt } = this.queue.shift()!;
      this.heldBytes -= chunk.length;
      if (this.destination.destroyed) continue;
      // Taken before write(): the peer may act on the bytes before the call returns.
      const forwardedAt = process.hrtime.bigint();
      this.destination.write(chunk);
      this.report({ direction: this.direction, receivedAt, forwardedAt, bytes: chunk.length }, chunk);
    }
    this.schedule();
  }
}
