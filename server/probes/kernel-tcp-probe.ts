// What the kernel itself counted for the run's client socket: TCP segments, payload bytes and
// retransmits from TCP_INFO, read with `ss -tin` (iproute2) just before t0 and again after the run;
// the trace keeps the difference. Beside the client's write() calls it shows that commands, write()
// calls, TCP segments and round trips are four different counts. The client socket is always local,
// so this works against a remote Redis too; where `ss` is missing the trace says so.
import { execFile } from 'node:child_process';
import type { Socket } from 'node:net';
import { promisify } from 'node:util';
import { KERNEL_TCP_SOURCE, type KernelTcp } from '../../trace/format/trace-format.ts';

const run = promisify(execFile);
export const SS = process.env['PIPESCOPE_SS'] ?? 'ss';

/** The TCP_INFO counters Pipescope keeps, as `ss -tin` names them. */
export interface TcpCounters {
  segsOut: number;
  segsIn: number;
  dataSegsOut: number;
  dataSegsIn: number;
  bytesAcked: number;
  bytesReceived: number;
  /** Total retransmitted segments (the second number of `retrans:a/b`; absent = 0). */
  retransmits: number;
}

/** Counters now, or why they cannot be read. */
export type TcpReading = { counters: TcpCounters } | { unavailable: string };

/**
 * Reads the counters of the connection between the socket's local and remote ports: an established one,
 * or with `state` 'connected' one in any state but listening and closed (a socket the peer has half-closed).
 */
export async function readKernelTcp(socket: Socket, state: 'established' | 'connected' = 'established'): Promise<TcpReading> {
  const { localPort, remotePort } = socket;
  if (!localPort || !remotePort) return { unavailable: 'the run socket has no TCP ports (not a TCP connection)' };
  try {
    const { stdout } = await run(SS, ['-tinH', 'state', state, `( sport = :${localPort} and dport = :${remotePort} )`], { timeout: 5_000 });
    const counters = parseSsInfo(stdout);
    return counters ? { counters } : { unavailable: `ss did not list the run's connection (port ${localPort})` };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { unavailable: code === 'ENOENT' ? `${SS} is not installed (Debian: apt-get install iproute2)` : `ss failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** The counters from `ss -tinH` output for one connection; undefined when no connection is listed. */
export function parseSsInfo(stdout: string): TcpCounters | undefined {
  const fields = new Map<string, string>();
  for (const match of stdout.matchAll(/\b([a-z_]+):([0-9/.]+)/g)) {
    if (!fields.has(match[1]!)) fields.set(match[1]!, match[2]!);
  }
  if (!fields.has('segs_out')) return undefined;
  const number = (name: string) => Number(fields.get(name) ?? 0);
  const retrans = fields.get('retrans');
  return {
    segsOut: number('segs_out'),
    segsIn: number('segs_in'),
    dataSegsOut: number('data_segs_out'),
    dataSegsIn: number('data_segs_in'),
    bytesAcked: number('bytes_acked'),
    bytesReceived: number('bytes_received'),
    retransmits: retrans ? Number(retrans.split('/')[1] ?? 0) : 0,
  };
}

/** The run's share: after − before, as the trace stores it (or why there is none). */
/**
 * The run's figures: after − before, less the warm-up's tail (`tail`), which crossed the socket between
 * the two readings: its bytes as the socket probe counted them, and a data segment per write and per
 * read. That holds because the tail is small (each request and each reply at most TAIL_SEGMENT_BYTES,
 * one segment at any MSS) and goes one message at a time with TCP_NODELAY, so no segment carries two.
 */
export function kernelTcpDelta(before: TcpReading, after: TcpReading, tail: TcpTailTraffic = NO_TAIL): KernelTcp {
  if ('unavailable' in before) return { source: KERNEL_TCP_SOURCE, unavailable: before.unavailable };
  if ('unavailable' in after) return { source: KERNEL_TCP_SOURCE, unavailable: after.unavailable };
  const a = after.counters;
  const b = before.counters;
  const at = (value: number) => Math.max(0, value);
  return {
    source: KERNEL_TCP_SOURCE,
    segmentsOut: at(a.segsOut - b.segsOut - tail.writes),
    segmentsIn: at(a.segsIn - b.segsIn - tail.reads),
    dataSegmentsOut: at(a.dataSegsOut - b.dataSegsOut - tail.writes),
    dataSegmentsIn: at(a.dataSegsIn - b.dataSegsIn - tail.reads),
    bytesAcked: at(a.bytesAcked - b.bytesAcked - tail.bytesOut),
    bytesReceived: at(a.bytesReceived - b.bytesReceived - tail.bytesIn),
    retransmits: a.retransmits - b.retransmits,
  };
}

/** The warm-up tail's messages may be at most this big (bytes) while `ss` reads the run's socket. */
export const TAIL_SEGMENT_BYTES = 1024;

/** What the warm-up's tail put through the socket between the two readings. */
export interface TcpTailTraffic {
  writes: number;
  reads: number;
  bytesOut: number;
  bytesIn: number;
}

const NO_TAIL: TcpTailTraffic = { writes: 0, reads: 0, bytesOut: 0, bytesIn: 0 };
