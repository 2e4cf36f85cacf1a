// What the observing proxy's hop costs per round trip, measured side by side: one connection straight to
// the target Redis and one through an observing port of its own (the same code as the user's, with no
// added delay and a session nobody sees), each sending one PING and awaiting its +PONG, in alternation
// with the order swapped every pair, so that a slow spell of this machine falls on both alike. The
// figure is the median of the paired differences (through − around) with a bootstrap 95 % interval.
import type { Socket } from 'node:net';
import { bootstrapMedian, median } from '../../trace/derive/bootstrap.ts';
import { HOP_COST_SOURCE, type HopCost, type RedisInfo } from '../../trace/format/trace-format.ts';
import { handshakeCommands, openRawSocket, type RedisTarget } from '../redis/redis-target.ts';
import { encode } from '../protocol/resp-encoder.ts';
import { ObservingPort } from './observing-port.ts';

const PING = Buffer.from('*1\r\n$4\r\nPING\r\n');

export interface HopSamples {
  aroundUs: number[];
  throughUs: number[];
}

/** Measures `pairs` PING pairs (after `warmup` unrecorded ones) and states the hop's cost. */
export async function measureHopCost(target: RedisTarget, redis: RedisInfo, pairs = 2000, warmup = 200): Promise<HopCost> {
  const samples = await hopSamples(target, redis, pairs, warmup);
  return hopCostOf(samples);
}

export function hopCostOf({ aroundUs, throughUs }: HopSamples): HopCost {
  const added = bootstrapMedian(throughUs.map((t, i) => t - aroundUs[i]!));
  const round = (us: number) => Math.round(us * 10) / 10;
  return {
    source: HOP_COST_SOURCE,
    pairs: aroundUs.length,
    aroundMedianUs: round(median(aroundUs)),
    throughMedianUs: round(median(throughUs)),
    addedUs: round(added.median),
    addedLowUs: round(added.low),
    addedHighUs: round(added.high),
  };
}

/** The raw samples (µs), for the benchmark to print its own way. */
export async function hopSamples(target: RedisTarget, redis: RedisInfo, pairs: number, warmup: number): Promise<HopSamples> {
  const port = await ObservingPort.open(() => target, () => redis, {
    port: 0,
    recorder: { tool: 'pipescope', version: '', runtime: '' },
    // The measuring connection's PINGs only: nothing is kept beyond what a few thousand commands need.
    limits: { maxSessionCommands: 10_000_000 },
  });
  const around = await openRawSocket(target);
  const through = await openRawSocket({ ...target, url: withHostPort(target.url, port.host, port.port), tlsServername: undefined });
  try {
    for (const socket of [around, through]) {
      for (const command of handshakeCommands(target, { select: false })) await roundTrip(socket, encode(command));
    }
    const aroundUs: number[] = [];
    const throughUs: number[] = [];
    for (let i = -warmup; i < pairs; i++) {
      // The order alternates: neither side is always second (warmer caches, a woken core).
      const first = i % 2 === 0 ? around : through;
      const a = await roundTrip(first, PING);
      const b = await roundTrip(first === around ? through : around, PING);
      if (i < 0) continue;
      aroundUs.push(first === around ? a : b);
      throughUs.push(first === around ? b : a);
      // Keep the observing port's own session small: it records these PINGs like any client's.
      if (i % 4000 === 3999) port.restart();
    }
    return { aroundUs, throughUs };
  } finally {
    around.destroy();
    through.destroy();
    await port.close();
  }
}

/** Writes `bytes` and resolves with the µs until the whole reply (one line or one bulk) arrived. */
function roundTrip(socket: Socket, bytes: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    let received: Buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = received.length ? Buffer.concat([received, chunk]) : chunk;
      if (!complete(received)) return;
      const us = Number(process.hrtime.bigint() - started) / 1000;
      socket.off('data', onData);
      socket.off('error', reject);
      if (received[0] === 45) reject(new Error(`Redis answered ${received.toString('utf8').trim()}`));
      else resolve(us);
    };
    socket.on('data', onData);
    socket.once('error', reject);
    const started = process.hrtime.bigint();
    socket.write(bytes);
  });
}

/** A simple reply (+PONG, -ERR, :1) or a whole bulk string. */
function complete(bytes: Buffer): boolean {
  const newline = bytes.indexOf(10);
  if (newline === -1) return false;
  if (bytes[0] !== 36) return true;
  const size = Number(bytes.toString('latin1', 1, newline - 1));
  return bytes.length >= newline + 1 + Math.max(0, size) + 2;
}

function withHostPort(url: string, host: string, port: number): string {
  const parsed = new URL(url);
  parsed.hostname = host;
  parsed.port = String(port);
  parsed.protocol = 'redis:'; // the observing port speaks plain TCP; it reaches a TLS Redis itself
  return parsed.toString();
}
