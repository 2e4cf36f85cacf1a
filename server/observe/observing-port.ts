// The observing port: a loopback TCP port that forwards every connection to the target Redis, byte for
// byte and chunk for chunk, and records each one (connection-recorder.ts) into the current session
// (observe-session.ts). Point any Redis client or application at it and see how it really pipelines.
// It never speaks for the client: the client's own AUTH goes through (unrecorded), Pipescope's password
// for the target is never sent on an observed connection. It accepts connections from loopback only
// unless told otherwise, and each node of a cluster could get a port of its own (one port, one target).
//
// Forwarding is direct (the chunk written on in the same event-loop turn it arrived) unless an added RTT
// is set, when each direction waits half of it (the delay proxy's DelayLine). Each side pauses the other
// while its own send buffer is over MAX_UNSENT_BYTES, so no buffer grows without bound.
//
// The forward waits for as little as it can: a client's chunk is read (parsed) before it goes on, since a
// chunk Redis would refuse, or one over the observing limits, must not reach it, but it is recorded only
// once written; a chunk from Redis is written on to the client first, then read and recorded.
import { createServer, isIP, type Server, type Socket } from 'node:net';
import { DelayLine } from '../probes/delay-proxy.ts';
import { readKernelTcp } from '../probes/kernel-tcp-probe.ts';
import { KERNEL_TCP_SOURCE, type HopCost, type RedisInfo, type TraceDocument } from '../../trace/format/trace-format.ts';
import { openRawSocket, type RedisTarget } from '../redis/redis-target.ts';
import type { ConnectionRecorder } from './connection-recorder.ts';
import type { ParsedChunk } from '../protocol/resp-request-parser.ts';
import { ObserveMonitor } from './observe-monitor.ts';
import type { Redis } from 'ioredis';
import { DEFAULT_OBSERVE_LIMITS, ObserveSession, type ObserveLimits, type SessionSummary } from './observe-session.ts';

/** Bytes one side may hold unsent before the other side is paused. */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/** How often the kernel's TCP counters of each open, active connection are read (ms). */
const KERNEL_POLL_MS = 1000;

export interface ObservingPortOptions {
  /** Port to listen on (0: a free one). */
  port: number;
  /** Address to listen on; loopback unless the user says otherwise. */
  host?: string;
  /** Relay connections from non-loopback addresses too (only with a non-loopback host). */
  allowRemote?: boolean;
  limits?: Partial<ObserveLimits>;
  recorder: { tool: string; version: string; runtime: string };
}

export class ObservingPort {
  private session: ObserveSession;
  private readonly sockets = new Set<Socket>();
  private delay = { addedRttMs: 0, jitterMs: 0 };
  private hopCost: HopCost | null = null;
  private readonly limits: ObserveLimits;
  private readonly poller: NodeJS.Timeout;
  private readonly pollers = new Map<ConnectionRecorder, { client: Socket; dirty: boolean }>();
  /** Each open connection's recorder by the address Redis sees for it (the proxy's side), for MONITOR's lines. */
  private readonly byUpstream = new Map<string, ConnectionRecorder>();
  private monitor: ObserveMonitor | null = null;

  private constructor(
    private readonly server: Server,
    readonly host: string,
    readonly port: number,
    private readonly target: () => RedisTarget,
    private readonly redis: () => RedisInfo,
    private readonly options: ObservingPortOptions,
  ) {
    this.limits = { ...DEFAULT_OBSERVE_LIMITS, ...options.limits };
    this.session = this.newSession();
    server.on('connection', (client) => this.accept(client));
    this.poller = setInterval(() => void this.pollKernel(), KERNEL_POLL_MS);
    this.poller.unref();
  }

  static async open(target: () => RedisTarget, redis: () => RedisInfo, options: ObservingPortOptions): Promise<ObservingPort> {
    // Half-open allowed: when the client closes its side, the kernel's figures are read before ours closes.
    const server = createServer({ noDelay: true, allowHalfOpen: true });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(error.code === 'EADDRINUSE' ? `the observing port ${options.port} is in use; choose another with --observe PORT` : `cannot open the observing port: ${error.message}`)));
      server.listen(options.port, host, () => resolve());
    });
    server.maxConnections = 10_000;
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : options.port;
    return new ObservingPort(server, host, port, target, redis, options);
  }

  /** What to give the client: redis://127.0.0.1:PORT (an IPv6 host in brackets). */
  get url(): string {
    const host = this.host === '0.0.0.0' || this.host === '::' ? '127.0.0.1' : this.host;
    return `redis://${isIP(host) === 6 ? `[${host}]` : host}:${this.port}`;
  }

  get current(): ObserveSession {
    return this.session;
  }

  /** The added RTT for connections accepted from now on (ms, half each way; ± jitter per chunk). */
  setDelay(addedRttMs: number, jitterMs = 0): void {
    this.delay = { addedRttMs, jitterMs };
  }

  get addedDelay(): { addedRttMs: number; jitterMs: number } {
    return this.delay;
  }

  setHopCost(hop: HopCost | null): void {
    this.hopCost = hop;
  }

  /** Ends the current session (its connections stay forwarded, but no longer recorded there) and starts a new one. */
  restart(): { traces: TraceDocument[]; summary: SessionSummary } {
    const old = this.session;
    for (const recorder of old.openRecorders) recorder.cut('the session was stopped');
    this.session = this.newSession();
    return { traces: old.traces(), summary: old.summary() };
  }

  /**
   * MONITOR on the target while on: each observed connection opened from now on (and each open one) gets
   * Redis's execution times in its trace. It costs Redis a little on every command: only when asked.
   */
  async setMonitor(on: boolean, control: Redis): Promise<void> {
    if (!on) {
      this.monitor?.stop();
      this.monitor = null;
      return;
    }
    if (this.monitor) return;
    this.monitor = await ObserveMonitor.start(this.target(), control, {
      execution: (source, atEpochUs, name) => {
        const recorder = this.byUpstream.get(source);
        recorder?.execution(atEpochUs, name);
        return recorder !== undefined;
      },
    });
    for (const recorder of this.byUpstream.values()) recorder.startMonitor(this.monitor.clock);
  }

  get monitoring(): boolean {
    return this.monitor !== null;
  }

  async close(): Promise<void> {
    clearInterval(this.poller);
    this.monitor?.stop();
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private newSession(): ObserveSession {
    return new ObserveSession(this.limits, this.redis, this.options.recorder, () => this.delay, () => this.hopCost);
  }

  private accept(client: Socket): void {
    client.on('error', () => client.destroy());
    const address = `${client.remoteAddress ?? '?'}:${client.remotePort ?? '?'}`;
    const session = this.session;
    if (!this.options.allowRemote && !isLoopback(client.remoteAddress)) {
      session.refuse(`refused a connection from ${address}: not a loopback client (the observing port relays loopback clients only, unless started with --observe-allow-remote)`);
      client.destroy();
      return;
    }
    const admitted = session.admit(address);
    if ('refused' in admitted) {
      // Said to the client as Redis would say it, then closed.
      client.end(`-ERR Pipescope observing port: ${admitted.refused.replace(/^refused a connection from \S+: /, '')}\r\n`);
      // Half-open is allowed: a client that never closes its side is cut off.
      setTimeout(() => client.destroy(), 1000).unref();
      return;
    }
    this.bridge(client, admitted, session);
  }

  private bridge(client: Socket, recorder: ConnectionRecorder, session: ObserveSession): void {
    client.setNoDelay(true);
    this.sockets.add(client);
    const held: Buffer[] = [];
    let upstream: Socket | null = null;
    let upstreamAddress: string | null = null;
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      upstream?.destroy();
      if (upstreamAddress) this.byUpstream.delete(upstreamAddress);
      // The kernel's last figures for the client's socket, read before it goes (a closed socket has none).
      void this.readKernel(recorder, client).finally(() => {
        client.destroy();
        this.sockets.delete(client);
        if (upstream) this.sockets.delete(upstream);
        this.pollers.delete(recorder);
        session.closed(recorder);
      });
    };
    this.pollers.set(recorder, { client, dirty: true });
    const { addedRttMs, jitterMs } = this.delay;
    const delayed = addedRttMs > 0 || jitterMs > 0;

    // Client → Redis. Each chunk is read before it is forwarded: a protocol error closes the connection, unforwarded.
    const toServerMeta: { commands: number; head: string }[] = [];
    let toServerLine: DelayLine | null = null;
    const forwardToServer = (chunk: Buffer) => {
      const at = process.hrtime.bigint();
      const parsed = recorder.readFromClient(chunk);
      this.dirty(recorder);
      if (parsed.error) return close();
      if (upstream && !toServerLine) {
        // Straight on, then recorded: the write does not wait for the record.
        const written = process.hrtime.bigint();
        const ok = upstream.write(chunk);
        const commands = record(chunk, parsed, at);
        recorder.toServer(chunk.length, commands, written, parsed.head);
        if (!ok) pause(client, upstream);
        return;
      }
      const commands = record(chunk, parsed, at);
      if (!upstream) {
        held.push(chunk);
        toServerMeta.push({ commands, head: parsed.head });
        return;
      }
      send(upstream, chunk, commands, parsed.head);
    };
    /** Records a client chunk read, and counts its bytes; returns the commands recorded. */
    const record = (chunk: Buffer, parsed: ParsedChunk, at: bigint): number => {
      const commands = recorder.fromClient(parsed, chunk.length, at);
      if (!session.countBytes(chunk.length)) recorder.cut('the session is full');
      return commands;
    };
    let countHeld: { toServer(bytes: number): void; toClient(bytes: number): void } | null = null;
    const send = (socket: Socket, chunk: Buffer, commands: number, head: string) => {
      if (toServerLine) {
        toServerMeta.push({ commands, head });
        countHeld?.toServer(chunk.length);
        toServerLine.push(chunk);
      } else {
        const at = process.hrtime.bigint();
        const ok = socket.write(chunk);
        recorder.toServer(chunk.length, commands, at, head);
        if (!ok) pause(client, socket);
      }
    };

    // Redis → client.
    const toClientMeta: { replies: number; head: string }[] = [];
    let toClientLine: DelayLine | null = null;
    const forwardToClient = (chunk: Buffer) => {
      const at = process.hrtime.bigint();
      if (toClientLine) {
        const result = recorder.fromServer(chunk, at);
        this.dirty(recorder);
        if ('error' in result) return close();
        session.countBytes(chunk.length);
        toClientMeta.push(result);
        countHeld?.toClient(chunk.length);
        toClientLine.push(chunk);
        return;
      }
      // Straight on, then read and recorded (written in the µs it arrived: `at` is both times). A reply stream
      // that is not RESP closes the connection after.
      const ok = client.write(chunk);
      const result = recorder.fromServer(chunk, at);
      this.dirty(recorder);
      if ('error' in result) return close();
      session.countBytes(chunk.length);
      recorder.toClient(chunk.length, result.replies, at, result.head);
      if (!ok && upstream) pause(upstream, client);
    };

    client.on('data', forwardToServer);
    client.on('end', () => void this.readKernel(recorder, client).finally(() => (toServerLine ? toServerLine.end() : upstream ? upstream.end() : close())));
    client.on('close', close);

    openRawSocket(this.target()).then((socket) => {
      if (closed) return socket.destroy();
      upstream = socket;
      upstreamAddress = `${socket.localAddress}:${socket.localPort}`;
      this.byUpstream.set(upstreamAddress, recorder);
      // Nothing has reached Redis on this connection yet: what the client sent so far is held, and MONITOR will log it.
      if (this.monitor) recorder.startMonitor(this.monitor.clock, 0);
      this.sockets.add(socket);
      socket.on('error', close);
      socket.on('close', close);
      socket.on('end', () => (toClientLine ? toClientLine.end() : client.end()));
      if (delayed) {
        // Bytes held in each delay line, bounded like a socket's unsent bytes: the sender waits while too many are held.
        let heldToServer = 0;
        let heldToClient = 0;
        const hold = (source: Socket, held: () => number) => {
          if (held() < MAX_UNSENT_BYTES || source.isPaused()) return;
          source.pause();
          const check = setInterval(() => {
            if (held() >= MAX_UNSENT_BYTES / 2 && !source.destroyed) return;
            clearInterval(check);
            source.resume();
          }, 5);
        };
        const random = Math.random;
        const oneWayNs = (addedRttMs * 1e6) / 2;
        const delayNs = () => BigInt(Math.max(0, Math.round(oneWayNs + (jitterMs > 0 ? (random() * 2 - 1) * jitterMs * 1e6 : 0))));
        toServerLine = new DelayLine(socket, 'to-server', delayNs, (chunk) => {
          const meta = toServerMeta.shift()!;
          heldToServer -= chunk.bytes;
          recorder.toServer(chunk.bytes, meta.commands, chunk.forwardedAt, meta.head);
        });
        toClientLine = new DelayLine(client, 'to-client', delayNs, (chunk) => {
          const meta = toClientMeta.shift()!;
          heldToClient -= chunk.bytes;
          recorder.toClient(chunk.bytes, meta.replies, chunk.forwardedAt, meta.head);
        });
        countHeld = {
          toServer: (bytes) => {
            heldToServer += bytes;
            hold(client, () => heldToServer);
          },
          toClient: (bytes) => {
            heldToClient += bytes;
            hold(socket, () => heldToClient);
          },
        };
      }
      socket.on('data', forwardToClient);
      // What the client sent before Redis was reached goes first, in order.
      const early = held.splice(0);
      const meta = toServerMeta.splice(0);
      early.forEach((chunk, i) => send(socket, chunk, meta[i]!.commands, meta[i]!.head));
    }, (error: Error) => {
      recorder.note(`could not reach Redis at ${this.target().address}: ${error.message}`);
      if (!closed) client.end(`-ERR Pipescope observing port: could not reach Redis at ${this.target().address}\r\n`);
      close();
    });
  }

  private dirty(recorder: ConnectionRecorder): void {
    const poll = this.pollers.get(recorder);
    if (poll) poll.dirty = true;
  }

  /** Reads `ss` for the open connections that moved bytes since the last reading. */
  private async pollKernel(): Promise<void> {
    const due = [...this.pollers.entries()].filter(([, p]) => p.dirty);
    for (const [recorder, poll] of due) {
      poll.dirty = false;
      await this.readKernel(recorder, poll.client);
    }
  }

  private async readKernel(recorder: ConnectionRecorder, client: Socket): Promise<void> {
    if (client.destroyed) return;
    const reading = await readKernelTcp(client, 'connected');
    if ('unavailable' in reading) {
      if (!recorder.meta.kernelTcp) recorder.setKernelTcp({ source: KERNEL_TCP_SOURCE, unavailable: reading.unavailable });
      return;
    }
    const c = reading.counters;
    // Since the accept: the counters of a new socket are its own from the handshake on.
    recorder.setKernelTcp({
      source: KERNEL_TCP_SOURCE, segmentsOut: c.segsOut, segmentsIn: c.segsIn, dataSegmentsOut: c.dataSegsOut, dataSegmentsIn: c.dataSegsIn,
      bytesAcked: c.bytesAcked, bytesReceived: c.bytesReceived, retransmits: c.retransmits,
    });
  }

  /** Reads the kernel counters of every open connection now (before a session is stopped). */
  async readKernelNow(): Promise<void> {
    for (const [recorder, poll] of this.pollers) await this.readKernel(recorder, poll.client);
  }
}

/** Pauses `source` until `destination` has sent what it holds. */
function pause(source: Socket, destination: Socket): void {
  if (destination.writableLength < MAX_UNSENT_BYTES) return;
  source.pause();
  destination.once('drain', () => source.resume());
}

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
