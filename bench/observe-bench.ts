// What the observing port costs, side by side: (1) its added latency per round trip, sequential PINGs on
// a connection straight to Redis and on one through the port, in alternation (with a bare Node socket
// pipe beside them, for what any proxy in this process costs here), and (2) its throughput, redis-benchmark
// -c 1 -P 100 PINGs through the port against straight to Redis, in rotating rounds. Every command through
// the port is parsed, paired and recorded as it is for a user's client.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { bootstrapMedian, median } from '../trace/derive/bootstrap.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { openRawSocket } from '../server/redis/redis-target.ts';
import { benchmarkRunner, measureDepth } from '../server/runs/redis-benchmark.ts';
import { ObservingPort } from '../server/observe/observing-port.ts';
import type { Finding } from './bench-report.ts';
import { roundRatios, sideBySide, spreadOf } from './side-by-side.ts';

export interface ObserveBenchOptions {
  /** PING pairs per round of the latency comparison, and rounds. */
  pairs: number;
  rounds: number;
  /** PINGs per redis-benchmark run (raised until it is timed well), and rounds. */
  throughputN: number;
  throughputRounds: number;
}

const PING = Buffer.from('*1\r\n$4\r\nPING\r\n');
const DEPTH = 100;

export async function observeBench(session: RedisSession, options: ObserveBenchOptions, log: (line: string) => void): Promise<Finding[]> {
  const port = await ObservingPort.open(() => session.target, () => session.info, {
    port: 0,
    recorder: { tool: 'pipescope-bench', version: '', runtime: '' },
    limits: { maxSessionCommands: 100_000_000, maxSessionMemory: 4 * 1024 * 1024 * 1024, maxSessionBytes: 64 * 1024 * 1024 * 1024 },
  });
  const bare = await barePipe(session);
  try {
    const latency = await latencyRounds(session, port, bare.port, options, log);
    const throughput = await throughputRounds(session, port, options, log);
    return [
      {
        name: 'observing proxy: added latency per round trip (through − around)',
        unit: 'us',
        spread: latency.added,
        goal: { bound: 'at most', value: 20 },
        how: `sequential PINGs, ${options.pairs.toLocaleString('en-US')} alternating pairs per round, median of the paired differences per round, ${options.rounds} rounds`,
      },
      {
        name: 'bare Node socket pipe: added latency per round trip (context)',
        unit: 'us',
        spread: latency.bare,
        goal: null,
        how: 'the same PINGs through a plain net.Socket pipe in this process: what any proxy here costs, parsing or not',
      },
      {
        name: `observing proxy throughput ÷ straight to Redis, redis-benchmark -P ${DEPTH} -c 1`,
        unit: 'ratio',
        spread: throughput.ratio,
        goal: { bound: 'at least', value: 0.5 },
        how: `PING ops/s as redis-benchmark printed them, ${options.throughputRounds} rounds side by side, every command through the port recorded`,
      },
      {
        name: 'observing proxy: this process\'s CPU time per command through the port (context)',
        unit: 'ns',
        spread: throughput.cpuNs,
        goal: null,
        how: 'process.cpuUsage() (user + system, every thread) across each redis-benchmark run through the port, ÷ its commands: steadier than the ratio under load',
      },
    ];
  } finally {
    await port.close();
    await new Promise((resolve) => bare.server.close(resolve));
  }
}

async function latencyRounds(session: RedisSession, port: ObservingPort, barePort: number, options: ObserveBenchOptions, log: (line: string) => void) {
  const around = await openRawSocket(session.target);
  const through = await openRawSocket({ ...session.target, url: `redis://${port.host}:${port.port}` });
  const piped = await openRawSocket({ ...session.target, url: `redis://127.0.0.1:${barePort}` });
  const sockets = [around, through, piped];
  const addedPerRound: number[] = [];
  const barePerRound: number[] = [];
  const pooled: number[] = [];
  try {
    for (let round = -1; round < options.rounds; round++) {
      const times: number[][] = [[], [], []];
      for (let i = 0; i < options.pairs; i++) {
        // The order rotates: none of the three is always first (or last) of its triple.
        for (let k = 0; k < 3; k++) {
          const which = (i + k) % 3;
          times[which]!.push(await pingUs(sockets[which]!));
        }
      }
      port.restart(); // the port's own session stays small
      if (round < 0) continue; // warm-up
      const added = times[1]!.map((t, i) => t - times[0]![i]!);
      addedPerRound.push(median(added));
      barePerRound.push(median(times[2]!.map((t, i) => t - times[0]![i]!)));
      pooled.push(...added);
      log(`  round ${round + 1}: PING ${median(times[0]!).toFixed(1)} µs around, ${median(times[1]!).toFixed(1)} µs through the observing port, ${median(times[2]!).toFixed(1)} µs through a bare pipe`);
    }
  } finally {
    for (const socket of sockets) socket.destroy();
  }
  const interval = bootstrapMedian(pooled);
  const added = spreadOf(addedPerRound);
  log(`  added per round trip: ${added.median.toFixed(1)} µs [${added.min.toFixed(1)}–${added.max.toFixed(1)}] over rounds; pooled ${interval.median.toFixed(1)} µs [95 % ${interval.low.toFixed(1)}–${interval.high.toFixed(1)}] (bootstrap)`);
  return { added, bare: spreadOf(barePerRound) };
}

async function throughputRounds(session: RedisSession, port: ObservingPort, options: ObserveBenchOptions, log: (line: string) => void) {
  const straight = benchmarkRunner(session.target, undefined, DEPTH, ['PING']);
  const viaPort = benchmarkRunner(session.target, { host: port.host, port: port.port }, DEPTH, ['PING']);
  const { commands } = await measureDepth(options.throughputN, 1, straight);
  const cpuNs: number[] = [];
  const samples = await sideBySide([
    { name: 'around', measure: async () => (await straight(commands)).opsPerSec },
    {
      name: 'through',
      measure: async () => {
        const before = process.cpuUsage();
        const result = await viaPort(commands);
        const used = process.cpuUsage(before);
        cpuNs.push(((used.user + used.system) * 1000) / commands);
        port.restart();
        return result.opsPerSec;
      },
    },
  ], options.throughputRounds);
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  const around = spreadOf(samples['around']!);
  const through = spreadOf(samples['through']!);
  log(`  redis-benchmark -c 1 -P ${DEPTH} -n ${int(commands)} PING: ${int(around.median)} ops/s [${int(around.min)}–${int(around.max)}] straight, ` +
    `${int(through.median)} [${int(through.min)}–${int(through.max)}] through the observing port`);
  return { ratio: roundRatios(samples['through']!, samples['around']!), cpuNs: spreadOf(cpuNs) };
}

/** A plain socket pipe to Redis in this process: no parsing, no recording. */
async function barePipe(session: RedisSession): Promise<{ server: Server; port: number }> {
  const target = new URL(session.target.url);
  const server = createServer({ noDelay: true }, (client) => {
    const upstream = connect(Number(target.port || 6379), target.hostname);
    upstream.setNoDelay(true);
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

function pingUs(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received < 7) return; // +PONG\r\n
      const us = Number(process.hrtime.bigint() - started) / 1000;
      socket.off('data', onData);
      socket.off('error', reject);
      resolve(us);
    };
    socket.on('data', onData);
    socket.once('error', reject);
    const started = process.hrtime.bigint();
    socket.write(PING);
  });
}
