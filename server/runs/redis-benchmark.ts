// Redis's own benchmark client as a reference point beside a sweep: `redis-benchmark -c 1 -P depth
// -n commands --csv <command>` at each depth, through the same delay proxy settings. It times a run in
// whole milliseconds, so where perPoint commands would take it under REFERENCE_MIN_RUN_MS it is given
// more, and the document says how many. Its keys live in
// the sweep's namespace (the command is given on its command line, key included) and are deleted after.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Reference, SweepSpec } from '../../trace/sweep-format.ts';
import { REFERENCE_MIN_RUN_MS, REFERENCE_TOOL } from '../../trace/sweep-format.ts';
import { assertAllowed, namespaceFor } from '../protocol/command-guard.ts';
import { DelayProxy } from '../probes/delay-proxy.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { targetHostPort, type RedisTarget } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';

const run = promisify(execFile);
export const REDIS_BENCHMARK = process.env['REDIS_BENCHMARK'] ?? 'redis-benchmark';
/** Linux caps one command-line argument at 128 KiB; the SET value travels as one. */
const MAX_REFERENCE_VALUE_BYTES = 64 * 1024;

/** redis-benchmark's version, or undefined when it is not installed. */
export async function redisBenchmarkVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await run(REDIS_BENCHMARK, ['--version']);
    return /redis-benchmark (\S+)/.exec(stdout)?.[1] ?? stdout.trim();
  } catch {
    return undefined;
  }
}

/**
 * The rps column of `redis-benchmark --csv` output (one test). It prints "inf" when a run took under
 * one of its milliseconds: that is Infinity here, a run too short to read, not an error.
 */
export function parseCsvRps(stdout: string): number {
  const line = stdout.trim().split('\n').find((l) => !l.startsWith('"test"'));
  const field = line?.split('","')[1];
  if (field === 'inf') return Infinity;
  const rps = Number(field);
  if (field === undefined || field === '' || !Number.isFinite(rps)) throw new Error(`redis-benchmark printed no result: ${stdout.trim().slice(0, 200)}`);
  return rps;
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

/**
 * Repeats of one depth, each with the same number of commands: perPoint, or as many as redis-benchmark
 * needs to time the run (runs found too short are calibration, left out of the figures).
 */
export async function measureDepth(
  perPoint: number,
  repeats: number,
  runOnce: (commands: number) => Promise<number>,
  onRun: (repeat: number) => void = () => {},
): Promise<{ commands: number; opsPerSec: number[] }> {
  let commands = perPoint;
  let first = await runOnce(commands);
  // Ends: each step grows `commands`, and at MAX_REFERENCE_COMMANDS the wanted count is that count.
  while (commandsToLastLongEnough(commands, first) !== commands) {
    commands = commandsToLastLongEnough(commands, first);
    first = await runOnce(commands);
  }
  const tooFast = () => new Error(`redis-benchmark ran ${commands} commands in under a millisecond; it cannot be timed`);
  if (!Number.isFinite(first)) throw tooFast();
  const opsPerSec = [first];
  onRun(1);
  for (let repeat = 2; repeat <= repeats; repeat++) {
    const ops = await runOnce(commands);
    if (!Number.isFinite(ops)) throw tooFast();
    opsPerSec.push(ops);
    onRun(repeat);
  }
  return { commands, opsPerSec };
}

/**
 * `redis-benchmark -c 1 -P depth -n commands --csv <command>` against the target (or a local hop to it,
 * such as the delay proxy), with its database and credentials: a function of `commands` that resolves
 * with the ops/s it printed (Infinity for "inf").
 */
export function benchmarkRunner(
  target: RedisTarget,
  via: { host: string; port: number } | undefined,
  depth: number,
  command: string[],
  signal?: AbortSignal,
): (commands: number) => Promise<number> {
  const url = new URL(target.url);
  const { host, port } = via ?? targetHostPort(target);
  const connection = ['-h', host, '-p', String(port), ...(url.pathname.length > 1 ? ['--dbnum', url.pathname.slice(1)] : [])];
  const auth = url.password
    ? [...(url.username ? ['--user', decodeURIComponent(url.username)] : []), '-a', decodeURIComponent(url.password), '--no-auth-warning']
    : [];
  return async (commands) => {
    if (signal?.aborted) throw new RunCancelledError('Sweep cancelled');
    const args = [...connection, '-c', '1', '-n', String(commands), '-P', String(depth), '--csv', '-q'];
    const { stdout } = await run(REDIS_BENCHMARK, [...args, ...auth, ...command], { signal, maxBuffer: 1024 * 1024 });
    return parseCsvRps(stdout);
  };
}

type ReferenceSpec = Pick<SweepSpec, 'command' | 'valueBytes' | 'depths' | 'perPoint' | 'repeats' | 'rttMs' | 'jitterMs'>;

export async function runReference(
  session: RedisSession,
  spec: ReferenceSpec,
  sweepId: string,
  onRun: (depth: number, repeat: number) => void,
  signal?: AbortSignal,
): Promise<Reference | { missing: string }> {
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
  if (spec.command === 'GET') await control.set(key, 'x'.repeat(spec.valueBytes));
  const delayed = spec.rttMs > 0 || spec.jitterMs > 0;
  const proxy = delayed ? await DelayProxy.start(targetHostPort(session.target), { addedRttMs: spec.rttMs, jitterMs: spec.jitterMs }) : undefined;
  try {
    const points: Reference['points'] = [];
    for (const depth of spec.depths) {
      const runOnce = benchmarkRunner(session.target, proxy, depth, command, signal);
      const { commands, opsPerSec } = await measureDepth(spec.perPoint, spec.repeats, runOnce, (repeat) => onRun(depth, repeat));
      points.push({ depth, commands, opsPerSec });
    }
    const shownArgs = ['-c', '1', '-n', '<commands>', '-P', '<depth>', '--csv', ...command.map((a) => (a.length > 40 ? `<${a.length} bytes>` : a))];
    return { tool: REFERENCE_TOOL, version, args: shownArgs, points };
  } catch (error) {
    throw signal?.aborted ? new RunCancelledError('Sweep cancelled') : error;
  } finally {
    await proxy?.close();
    assertAllowed(namespace, 'UNLINK', [key]);
    await control.unlink(key);
  }
}

function commandLine(spec: ReferenceSpec, key: string): string[] {
  switch (spec.command) {
    case 'PING': return ['PING'];
    case 'INCR': return ['INCR', key];
    case 'SET': return ['SET', key, 'x'.repeat(spec.valueBytes)];
    case 'GET': return ['GET', key];
  }
}
