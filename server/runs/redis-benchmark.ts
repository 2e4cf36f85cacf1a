// Redis's own benchmark client as a reference point beside a sweep: `redis-benchmark -c 1 -P depth
// -n commands --csv <command>` at each depth, through the same delay proxy settings. It times a run in
// whole milliseconds, so where perPoint commands would take it under REFERENCE_MIN_RUN_MS it is given
// more, and the document says how many. Its keys live in
// the sweep's namespace (the command is given on its command line, key included) and are deleted after.
// Its command line carries no secret: against a Redis with a password it reaches Redis through
// benchmark-auth-relay.ts, and a failure is reported by what it printed, never by its command line.
import { execFile, type ExecFileException } from 'node:child_process';
import { promisify } from 'node:util';
import type { Reference, ReferenceLatency, SweepSpec } from '../../trace/format/sweep-format.ts';
import { REFERENCE_MIN_RUN_MS, REFERENCE_TOOL } from '../../trace/format/sweep-format.ts';
import { assertAllowed, namespaceFor } from '../protocol/command-guard.ts';
import { DelayProxy } from '../probes/delay-proxy.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { targetHostPort, type RedisTarget } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { BenchmarkAuthRelay } from './benchmark-auth-relay.ts';
import { RunLease } from './run-lease.ts';
import { refuseOnCluster } from './cluster-refusal.ts';

const run = promisify(execFile);
/** The program to run: $REDIS_BENCHMARK (read at each use, so a test can wrap it) or redis-benchmark. */
export const redisBenchmarkBinary = (): string => process.env['REDIS_BENCHMARK'] ?? 'redis-benchmark';
/**
 * One redis-benchmark run that has not ended within this (ms) is stopped: a Redis that stopped answering
 * would hold it, and the sweep, forever. Its longest honest run (MAX_REFERENCE_COMMANDS) takes seconds.
 */
export const REFERENCE_RUN_TIMEOUT_MS = 120_000;
/** Linux caps one command-line argument at 128 KiB; the SET value travels as one. */
const MAX_REFERENCE_VALUE_BYTES = 64 * 1024;

/** redis-benchmark's version, or undefined when it is not installed. */
export async function redisBenchmarkVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await run(redisBenchmarkBinary(), ['--version']);
    return /redis-benchmark (\S+)/.exec(stdout)?.[1] ?? stdout.trim();
  } catch {
    return undefined;
  }
}

/** What one redis-benchmark run printed: its ops/s and, when it printed them, its latency columns. */
export interface BenchmarkResult {
  /** Infinity for "inf": a run under one of its milliseconds, too short to read, not an error. */
  opsPerSec: number;
  latency: ReferenceLatency | null;
}

/** redis-benchmark's --csv latency columns (Redis 7 and later), in the order ReferenceLatency names them. */
const LATENCY_COLUMNS = [
  ['avg_latency_ms', 'avgMs'], ['min_latency_ms', 'minMs'], ['p50_latency_ms', 'p50Ms'],
  ['p95_latency_ms', 'p95Ms'], ['p99_latency_ms', 'p99Ms'], ['max_latency_ms', 'maxMs'],
] as const;

const csvFields = (line: string): string[] => line.trim().replace(/^"|"$/g, '').split('","');

/**
 * `redis-benchmark --csv` output (one test): the rps column, and the latency columns when its header
 * names them (Redis 6 printed only test and rps, with no header). It prints "inf" for a run under one of
 * its milliseconds: that is Infinity here, not an error.
 */
export function parseBenchmarkCsv(stdout: string): BenchmarkResult {
  const lines = stdout.trim().split('\n');
  const header = lines.find((l) => l.startsWith('"test"'));
  const fields = csvFields(lines.find((l) => !l.startsWith('"test"')) ?? '');
  const field = fields[1];
  const rps = Number(field);
  if (field !== 'inf' && (field === undefined || field === '' || !Number.isFinite(rps))) {
    throw new Error(`redis-benchmark printed no result: ${stdout.trim().slice(0, 200)}`);
  }
  return { opsPerSec: field === 'inf' ? Infinity : rps, latency: header ? latencyOf(csvFields(header), fields) : null };
}

/** The latency columns of a data row, or null when the header lacks one or a cell is not a number. */
function latencyOf(header: readonly string[], fields: readonly string[]): ReferenceLatency | null {
  const entries = LATENCY_COLUMNS.map(([column, key]) => {
    const index = header.indexOf(column);
    const value = index < 0 || fields[index] === undefined || fields[index] === '' ? NaN : Number(fields[index]);
    return [key, value] as const;
  });
  return entries.every(([, value]) => Number.isFinite(value) && value >= 0) ? (Object.fromEntries(entries) as unknown as ReferenceLatency) : null;
}

/** The most commands one reference run may send: ~3 s at the fastest rate seen here (3.4 M ops/s). */
export const MAX_REFERENCE_COMMANDS = 10_000_000;

/**
 * How many commands a run must send to last REFERENCE_MIN_RUN_MS by redis-benchmark's millisecond
 * clock, given what `commands` measured; `commands` itself when that run was long enough.
 */
export function commandsToLastLongEnough(commands: number, opsPerSec: number): number {
  const ranMs = (commands / opsPerSec) * 1000;
  if (ranMs >= REFERENCE_MIN_RUN_MS) return commands;
  // Too short to read (or "inf"): aim at 1.5× the minimum, growing at least tenfold from an unreadable run.
  const wanted = Number.isFinite(opsPerSec) && ranMs >= 1 ? Math.ceil((commands * 1.5 * REFERENCE_MIN_RUN_MS) / ranMs) : commands * 10;
  return Math.min(MAX_REFERENCE_COMMANDS, Math.max(wanted, commands + 1));
}

/** A depth's repeats as redis-benchmark printed them, each run sending `commands`. */
export interface DepthResult {
  commands: number;
  opsPerSec: number[];
  /** One per repeat, when every repeat printed its latency columns. */
  latencies?: ReferenceLatency[];
}

/**
 * Repeats of one depth, each with the same number of commands: perPoint, or as many as redis-benchmark
 * needs to time the run (runs found too short are calibration, left out of the figures).
 */
export async function measureDepth(
  perPoint: number,
  repeats: number,
  runOnce: (commands: number) => Promise<BenchmarkResult>,
  onRun: (repeat: number) => void = () => {},
): Promise<DepthResult> {
  let commands = perPoint;
  let first = await runOnce(commands);
  // Ends: each step grows `commands`, and at MAX_REFERENCE_COMMANDS the wanted count is that count.
  while (commandsToLastLongEnough(commands, first.opsPerSec) !== commands) {
    commands = commandsToLastLongEnough(commands, first.opsPerSec);
    first = await runOnce(commands);
  }
  const tooFast = () => new Error(`redis-benchmark ran ${commands} commands in under a millisecond; it cannot be timed`);
  if (!Number.isFinite(first.opsPerSec)) throw tooFast();
  const runs = [first];
  onRun(1);
  for (let repeat = 2; repeat <= repeats; repeat++) {
    const result = await runOnce(commands);
    if (!Number.isFinite(result.opsPerSec)) throw tooFast();
    runs.push(result);
    onRun(repeat);
  }
  const latencies = runs.map((r) => r.latency).filter((l): l is ReferenceLatency => l !== null);
  return { commands, opsPerSec: runs.map((r) => r.opsPerSec), ...(latencies.length === runs.length ? { latencies } : {}) };
}

/** Where redis-benchmark connects: host and port, or the auth relay's Unix socket. */
export type BenchmarkEndpoint = { host: string; port: number } | { socketPath: string };

/**
 * `redis-benchmark -c 1 -P depth -n commands --csv <command>` at the endpoint (the target by default, a local hop
 * to it such as the delay proxy, or the auth relay), with the target's database: a function of
 * `commands` that resolves with what it printed (ops/s, Infinity for "inf", and its latencies). No credentials on its command
 * line: a Redis with a password is reached through the relay, which signs in itself.
 */
export function benchmarkRunner(
  target: RedisTarget,
  endpoint: BenchmarkEndpoint | undefined,
  depth: number,
  command: string[],
  signal?: AbortSignal,
  relay?: BenchmarkAuthRelay,
): (commands: number) => Promise<BenchmarkResult> {
  const url = new URL(target.url);
  const at = endpoint ?? targetHostPort(target);
  const connection = [
    ...('socketPath' in at ? ['-s', at.socketPath] : ['-h', at.host, '-p', String(at.port)]),
    ...(url.pathname.length > 1 ? ['--dbnum', url.pathname.slice(1)] : []),
  ];
  return async (commands) => {
    if (signal?.aborted) throw new RunCancelledError('Sweep cancelled');
    const args = [...connection, '-c', '1', '-n', String(commands), '-P', String(depth), '--csv', '-q'];
    try {
      const { stdout } = await run(redisBenchmarkBinary(), [...args, ...command], { signal, maxBuffer: 1024 * 1024, timeout: REFERENCE_RUN_TIMEOUT_MS });
      return parseBenchmarkCsv(stdout);
    } catch (error) {
      if (signal?.aborted) throw new RunCancelledError('Sweep cancelled');
      throw benchmarkFailure(error, relay?.refusal);
    }
  };
}

/**
 * What went wrong, in redis-benchmark's own words (the first line it printed) or Redis's answer to the
 * relay's AUTH; never the command line, which execFile's message would quote.
 */
export function benchmarkFailure(error: unknown, authRefusal: string | undefined): Error {
  if (authRefusal) return new Error(`redis-benchmark could not sign in to Redis: ${authRefusal}`);
  const failed = error as ExecFileException & { stdout?: string; stderr?: string };
  if (!(failed instanceof Error) || !('code' in failed || 'stderr' in failed)) return failed as Error;
  if (failed.code === 'ENOENT') return new Error(`${redisBenchmarkBinary()} was not found (Debian: apt-get install redis-tools).`);
  if (failed.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return new Error('redis-benchmark printed more than 1 MiB; its result could not be read.');
  if (failed.killed && failed.signal === 'SIGTERM') {
    return new Error(`redis-benchmark did not finish within ${REFERENCE_RUN_TIMEOUT_MS / 1000} s and was stopped: Redis is not answering, or far too slowly.`);
  }
  if (failed.message.startsWith('redis-benchmark printed no result')) return failed;
  const said = `${failed.stderr ?? ''}\n${failed.stdout ?? ''}`.split('\n').map((line) => line.trim()).filter(Boolean).slice(0, 2).join(' ').slice(0, 300);
  const how = typeof failed.code === 'number' ? `exit code ${failed.code}` : failed.signal ? `signal ${failed.signal}` : 'it failed';
  return new Error(`redis-benchmark failed (${how})${said ? `: ${said}` : ''}`);
}

type ReferenceSpec = Pick<SweepSpec, 'command' | 'valueBytes' | 'depths' | 'perPoint' | 'repeats' | 'rttMs' | 'jitterMs'>;

export async function runReference(
  session: RedisSession,
  spec: ReferenceSpec,
  sweepId: string,
  onRun: (depth: number, repeat: number) => void,
  signal?: AbortSignal,
): Promise<Reference | { missing: string }> {
  refuseOnCluster(session, 'a redis-benchmark reference');
  const version = await redisBenchmarkVersion();
  if (!version) return { missing: 'redis-benchmark is not installed (Debian: apt-get install redis-tools).' };
  const url = new URL(session.target.url);
  if (url.protocol === 'rediss:') return { missing: 'The redis-benchmark reference is not run over TLS.' };
  if (spec.command === 'SET' && spec.valueBytes > MAX_REFERENCE_VALUE_BYTES) {
    return { missing: `redis-benchmark takes the SET value on its command line; the reference is run for values up to ${MAX_REFERENCE_VALUE_BYTES / 1024} KiB.` };
  }
  const namespace = namespaceFor(sweepId);
  const key = `${namespace}bench`;
  const command = commandLine(spec, key);
  assertAllowed(namespace, command[0]!, command.slice(1));
  const { control } = session;
  // Its key lives under the sweep's namespace: leased like a run's (run-lease.ts), before it exists.
  const lease = await RunLease.take(session.keyspace(), sweepId);
  const auth = authArgs(url);
  let proxy: DelayProxy | undefined;
  let relay: BenchmarkAuthRelay | undefined;
  try {
    if (spec.command === 'GET') await control.set(key, 'x'.repeat(spec.valueBytes));
    const delayed = spec.rttMs > 0 || spec.jitterMs > 0;
    proxy = delayed ? await DelayProxy.start(targetHostPort(session.target), { addedRttMs: spec.rttMs, jitterMs: spec.jitterMs }) : undefined;
    const hop = proxy ?? targetHostPort(session.target);
    relay = auth ? await BenchmarkAuthRelay.start(hop, auth) : undefined;
    const endpoint: BenchmarkEndpoint = relay ? { socketPath: relay.path } : hop;
    const points: Reference['points'] = [];
    for (const depth of spec.depths) {
      const runOnce = benchmarkRunner(session.target, endpoint, depth, command, signal, relay);
      points.push({ depth, ...(await measureDepth(spec.perPoint, spec.repeats, runOnce, (repeat) => onRun(depth, repeat))) });
    }
    const shownArgs = [
      ...(relay ? ['-s', '<auth relay>'] : []),
      '-c', '1', '-n', '<commands>', '-P', '<depth>', '--csv', ...command.map((a) => (a.length > 40 ? `<${a.length} bytes>` : a)),
    ];
    return { tool: REFERENCE_TOOL, version, args: shownArgs, points };
  } catch (error) {
    throw signal?.aborted ? new RunCancelledError('Sweep cancelled') : error;
  } finally {
    await relay?.close();
    await proxy?.close();
    assertAllowed(namespace, 'UNLINK', [key]);
    const deleted = await control.unlink(key).then(() => true, () => false);
    await lease.release(deleted).catch(() => lease.abandon());
  }
}

/** AUTH's arguments ([user,] password) for a URL with a password; undefined when it has none. */
function authArgs(url: URL): string[] | undefined {
  if (!url.password) return undefined;
  return [...(url.username ? [decodeURIComponent(url.username)] : []), decodeURIComponent(url.password)];
}

function commandLine(spec: ReferenceSpec, key: string): string[] {
  switch (spec.command) {
    case 'PING': return ['PING'];
    case 'INCR': return ['INCR', key];
    case 'SET': return ['SET', key, 'x'.repeat(spec.valueBytes)];
    case 'GET': return ['GET', key];
    case 'GET-COMPUTE-SET': throw new Error('redis-benchmark cannot run a dependent GET-COMPUTE-SET step');
  }
}
