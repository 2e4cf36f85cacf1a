// redis-benchmark's own latency figures, as its --csv output prints them since Redis 7: per test, the
// rps and avg/min/p50/p95/p99/max latency in ms (3 decimals: µs resolution). Columns are found by
// their header names, so an older redis-benchmark that prints only "test","rps" gets a clear error
// rather than misread numbers. server/runs/redis-benchmark.ts runs it for ops/s (rps) only.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { redisBenchmarkBinary } from '../server/runs/redis-benchmark.ts';
import { targetHostPort, type RedisTarget } from '../server/redis/redis-target.ts';
import type { LatencyStats } from '../trace/derive/latency-stats.ts';

const run = promisify(execFile);

/** One line of redis-benchmark's --csv: the same latency figures as latencyStats, in µs. */
export interface BenchmarkRow extends Omit<LatencyStats, 'count'> {
  /** The test's name as printed: "PING_INLINE", "PING_MBULK", "PING" for a custom command… */
  test: string;
  /** Infinity when redis-benchmark printed "inf" (a run under one of its milliseconds). */
  rps: number;
}

const LATENCY_COLUMNS = { avgUs: 'avg_latency_ms', minUs: 'min_latency_ms', p50Us: 'p50_latency_ms', p95Us: 'p95_latency_ms', p99Us: 'p99_latency_ms', maxUs: 'max_latency_ms' } as const;

/** `"a","b"` → ['a', 'b']: redis-benchmark quotes every field and no field holds a quote. */
function csvFields(line: string): string[] {
  return line.trim().replace(/^"|"$/g, '').split('","');
}

/** Every test's row of `redis-benchmark --csv` output, latencies in µs. */
export function parseCsvLatency(stdout: string): BenchmarkRow[] {
  const lines = stdout.split('\n').filter((l) => l.trim() !== '');
  const header = lines[0] ? csvFields(lines[0]) : [];
  const column = (name: string) => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`redis-benchmark's CSV has no ${name} column (redis-benchmark 7 or later prints latencies): ${stdout.trim().slice(0, 200)}`);
    return index;
  };
  const test = column('test');
  const rps = column('rps');
  const latency = (Object.keys(LATENCY_COLUMNS) as (keyof typeof LATENCY_COLUMNS)[]).map((key) => [key, column(LATENCY_COLUMNS[key])] as const);
  const rows = lines.slice(1).map((line) => {
    const fields = csvFields(line);
    const number = (index: number, what: string) => {
      const value = Number(fields[index]);
      if (fields[index] === undefined || fields[index] === '' || !Number.isFinite(value)) throw new Error(`redis-benchmark printed no ${what}: ${line.slice(0, 200)}`);
      return value;
    };
    const row = { test: fields[test]!, rps: fields[rps] === 'inf' ? Infinity : number(rps, 'rps') } as BenchmarkRow;
    // ms → µs, rounded to the ns so that 0.036 ms reads 36 µs, not 35.99999….
    for (const [key, index] of latency) row[key] = Math.round(number(index, header[index]!) * 1e6) / 1e3;
    return row;
  });
  if (rows.length === 0) throw new Error(`redis-benchmark printed no result: ${stdout.trim().slice(0, 200)}`);
  return rows;
}

/**
 * `redis-benchmark -c 1 -P 1 -n <n> --csv -t <tests>` against the target and its database (a target
 * without a password): a function that runs it once and resolves with every test's row.
 */
export function latencyRunner(target: RedisTarget, n: number, tests: string): () => Promise<BenchmarkRow[]> {
  const url = new URL(target.url);
  const { host, port } = targetHostPort(target);
  const args = ['-h', host, '-p', String(port), ...(url.pathname.length > 1 ? ['--dbnum', url.pathname.slice(1)] : []), '-c', '1', '-P', '1', '-n', String(n), '--csv', '-t', tests];
  // redis-benchmark 7 takes a password only as -a, which any user sees in ps: never pass one.
  if (url.password) throw new Error('The latency bench runs redis-benchmark, which takes a password only on its command line; run it against a Redis without one (the private one, by default).');
  return async () => parseCsvLatency((await run(redisBenchmarkBinary(), args, { maxBuffer: 1024 * 1024 })).stdout);
}
