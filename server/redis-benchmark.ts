// Redis's own benchmark client as a reference point beside a sweep: `redis-benchmark -c 1 -P depth
// -n perPoint --csv <command>` at each depth, through the same delay proxy settings. Its keys live in
// the sweep's namespace (the command is given on its command line, key included) and are deleted after.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Reference, SweepSpec } from '../trace/sweep-format.ts';
import { REFERENCE_TOOL } from '../trace/sweep-format.ts';
import { assertAllowed, namespaceFor } from './command-guard.ts';
import { DelayProxy } from './delay-proxy.ts';
import type { RedisSession } from './redis-session.ts';
import { targetHostPort } from './redis-target.ts';
import { RunCancelledError } from './run-drivers.ts';

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

/** The rps column of `redis-benchmark --csv` output (one test). */
export function parseCsvRps(stdout: string): number {
  const line = stdout.trim().split('\n').find((l) => !l.startsWith('"test"'));
  const rps = Number(line?.split('","')[1]);
  if (!Number.isFinite(rps)) throw new Error(`redis-benchmark printed no result: ${stdout.trim().slice(0, 200)}`);
  return rps;
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
    const { host, port } = proxy ?? targetHostPort(session.target);
    const connection = ['-h', host, '-p', String(port), ...(url.pathname.length > 1 ? ['--dbnum', url.pathname.slice(1)] : [])];
    const auth = url.password
      ? [...(url.username ? ['--user', decodeURIComponent(url.username)] : []), '-a', decodeURIComponent(url.password), '--no-auth-warning']
      : [];
    const points: Reference['points'] = [];
    for (const depth of spec.depths) {
      const opsPerSec: number[] = [];
      for (let repeat = 1; repeat <= spec.repeats; repeat++) {
        if (signal?.aborted) throw new RunCancelledError('Sweep cancelled');
        const args = [...connection, '-c', '1', '-n', String(spec.perPoint), '-P', String(depth), '--csv', '-q'];
        const { stdout } = await run(REDIS_BENCHMARK, [...args, ...auth, ...command], { signal, maxBuffer: 1024 * 1024 });
        opsPerSec.push(parseCsvRps(stdout));
        onRun(depth, repeat);
      }
      points.push({ depth, opsPerSec });
    }
    const shownArgs = ['-c', '1', '-n', String(spec.perPoint), '-P', '<depth>', '--csv', ...command.map((a) => (a.length > 40 ? `<${a.length} bytes>` : a))];
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
