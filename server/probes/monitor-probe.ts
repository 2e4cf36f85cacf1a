// Watches Redis execute commands, with MONITOR on a raw connection of its own: each line says when
// Redis ran a command (server clock) and for which client address. Started before t0 and stopped
// after the run, it gives the run's commands their execution times and shows other clients' commands.
// A plain socket, not ioredis: its monitor mode races the first lines against its own command queue
// and can emit an unhandled error when other clients are busy.
//
// hold() stops reading (the socket is paused: no event wakes this process for it) and release() reads
// on. MONITOR's times are Redis's own, so reading later loses nothing; what Redis writes meanwhile waits
// in the kernel's socket buffers, as long as it fits there (see MONITOR_HOLD_BYTES).
import type { Socket } from 'node:net';
import { handshakeCommands, openRawSocket, type RedisTarget } from '../redis/redis-target.ts';

export interface MonitorLine {
  /** Server epoch µs, as MONITOR printed it. */
  atEpochUs: number;
  /** ip:port of the client connection that sent the command. */
  source: string;
  args: string[];
}

const MONITOR_LINE = /^\+(\d+\.\d+) \[\d+ ([^\]]+)\] (.*)$/;
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

/**
 * MONITOR output a run may leave unread while it runs (bytes): a quarter of the kernel's default receive
 * buffer for a TCP socket on Linux (tcp_rmem 131,072), which also holds what the sender's buffer cannot.
 * Within it, Redis never keeps the lines in its own memory, so no output-buffer limit of a user's Redis
 * (client-output-buffer-limit, maxmemory-clients: not ours to change) can come into play.
 */
export const MONITOR_HOLD_BYTES = 32 * 1024;

/**
 * The length of the MONITOR line of one command, at most: "+<s>.<µs> [<db> <address>] " (an IPv6
 * address with port is at most 47 characters), each argument quoted as sdscatrepr quotes it, and CRLF.
 */
export function monitorLineBytes(args: readonly (string | Buffer)[]): number {
  let bytes = 1 + 17 + 2 + 5 + 1 + 47 + 2 + 2;
  for (const arg of args) {
    bytes += 3; // the quotes and the space before
    const data = typeof arg === 'string' ? Buffer.from(arg) : arg;
    for (const byte of data) bytes += byte === 0x22 || byte === 0x5c || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x07 || byte === 0x08 ? 2 : byte < 0x20 || byte > 0x7e ? 4 : 1;
  }
  return bytes;
}

export class MonitorProbe {
  readonly lines: MonitorLine[] = [];
  private waiters: (() => void)[] = [];
  private pending = '';
  /** ns spent reading and parsing lines while `timing` (the run's measured window). */
  private busyNs = 0n;
  private timing = false;

  private constructor(private readonly socket: Socket) {}

  /** Resolves once Redis has answered +OK to MONITOR, so nothing after this is missed. */
  static async start(target: RedisTarget): Promise<MonitorProbe> {
    const socket = await openRawSocket(target);
    const handshake = handshakeCommands(target, { select: false });
    const probe = new MonitorProbe(socket);
    const replies: string[] = [];
    const ready = new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      probe.onLine = (line) => {
        if (line.startsWith('-')) reject(new Error(`MONITOR refused: ${line.slice(1)}`));
        else replies.push(line);
        if (replies.length === handshake.length + 1) {
          probe.onLine = (next) => probe.record(next);
          resolve();
        }
      };
    });
    socket.on('data', (chunk: Buffer) => probe.received(chunk));
    socket.on('error', () => {}); // a dying monitor only loses lines; finish() reports what is missing
    socket.write([...handshake, ['MONITOR']].map(resp).join(''));
    await ready;
    return probe;
  }

  private onLine: (line: string) => void = () => {};

  private received(chunk: Buffer): void {
    if (!this.timing) return this.feed(chunk.toString('latin1'));
    const started = process.hrtime.bigint();
    this.feed(chunk.toString('latin1'));
    this.busyNs += process.hrtime.bigint() - started;
  }

  /** Stops reading: what Redis writes waits in the socket's buffers until release(). */
  hold(): void {
    this.socket.pause();
  }

  release(): void {
    this.socket.resume();
  }

  /** Times its own reading from now until stopTiming(), which returns it (µs). */
  startTiming(): void {
    this.busyNs = 0n;
    this.timing = true;
  }

  stopTiming(): number {
    this.timing = false;
    return Number(this.busyNs) / 1000;
  }

  private feed(text: string): void {
    this.pending += text;
    let end: number;
    while ((end = this.pending.indexOf('\r\n')) !== -1) {
      const line = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 2);
      this.onLine(line);
    }
  }

  private record(line: string): void {
    const parsed = parseMonitorLine(line);
    if (!parsed) return;
    this.lines.push(parsed);
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Lines from one client address, in execution order. */
  linesFrom(source: string): MonitorLine[] {
    return this.lines.filter((line) => line.source === source);
  }

  /** Waits until `count` lines from `source` have arrived (MONITOR output trails execution a little). */
  async waitFor(source: string, count: number, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.linesFrom(source).length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`MONITOR saw ${this.linesFrom(source).length} of the run's ${count} commands.`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): void {
    this.socket.destroy();
  }
}

/** One line of MONITOR's output (without its CRLF), or null for anything else. */
export function parseMonitorLine(line: string): MonitorLine | null {
  const match = MONITOR_LINE.exec(line);
  if (!match) return null;
  const args = [...match[3]!.matchAll(QUOTED)].map((m) => unescape(m[1]!));
  return { atEpochUs: Math.round(Number(match[1]) * 1e6), source: match[2]!, args };
}

/** "ip:port" as Redis prints a client address. */
export function redisAddress(address: string | undefined, port: number | undefined): string {
  return `${address ?? ''}:${port ?? 0}`;
}

function resp(args: string[]): string {
  return `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
}

/** MONITOR quotes arguments like sdscatrepr: \" \\ \n \r \t \a \b and \xHH. */
function unescape(text: string): string {
  return text.replace(/\\(x[0-9a-f]{2}|.)/g, (_, code: string) => {
    if (code.startsWith('x') && code.length === 3) return String.fromCharCode(parseInt(code.slice(1), 16));
    return ({ n: '\n', r: '\r', t: '\t', a: '\x07', b: '\b' } as Record<string, string>)[code] ?? code;
  });
}
