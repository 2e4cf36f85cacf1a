// Per-command latency of a sequential PING run, as Pipescope reports it (latencyStats: from the write
// that carried a command to the read that completed its reply, at the client socket), against what
// Redis's own C client reports for the same loop: `redis-benchmark -c 1 -P 1 -t ping`, its average
// latency, on the same Redis in the same rounds. Our p50 ÷ its avg, per round. Each engine is compared
// with the test that sends what it sends: the raw engine writes the inline "PING\r\n" (PING_INLINE),
// ioredis and node-redis a RESP array (PING_MBULK). Our runs are the app's: executeRun with its default
// options. The goal is the raw engine's; the client libraries' ratios are stated beside it (node-redis
// writes each command at the next setImmediate after it is issued, a hop ioredis does not make).
import type { Engine } from '../trace/format/run-request.ts';
import { latencyStats, type LatencyStats } from '../trace/derive/latency-stats.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import { redisBenchmarkVersion } from '../server/runs/redis-benchmark.ts';
import type { Finding } from './bench-report.ts';
import { latencyRunner, type BenchmarkRow } from './redis-benchmark-latency.ts';
import { roundRatios, sideBySide, spreadOf, type Variant } from './side-by-side.ts';

export interface LatencyOptions {
  /** PINGs per run, ours and each of redis-benchmark's two tests. */
  n: number;
  rounds: number;
}

/** The redis-benchmark test that sends PING as each engine does. */
const MATCHING_TEST: Record<Engine, string> = { raw: 'PING_INLINE', ioredis: 'PING_MBULK', 'node-redis': 'PING_MBULK' };
const ENGINES: Engine[] = ['raw', 'ioredis', 'node-redis'];

export async function latencyBench(session: RedisSession, { n, rounds }: LatencyOptions, log: (line: string) => void): Promise<Finding[]> {
  const version = await redisBenchmarkVersion();
  if (!version) throw new Error('redis-benchmark is not installed (Debian: apt-get install redis-tools); it is the reference this ratio needs.');
  const runBenchmark = latencyRunner(session.target, n, 'ping');
  // Every figure a round measured, kept beside the one number sideBySide compares.
  const ours: Record<Engine, LatencyStats[]> = { raw: [], ioredis: [], 'node-redis': [] };
  const theirs: BenchmarkRow[][] = [];
  const variants: Variant[] = [
    ...ENGINES.map((engine) => ({
      name: engine,
      measure: async () => {
        const doc = await executeRun(session, 'sequential', { command: 'PING', n, valueBytes: 0, engine, memory: true, kernelTcp: true });
        const stats = latencyStats(doc);
        ours[engine].push(stats);
        return stats.p50Us;
      },
    })),
    {
      name: 'redis-benchmark',
      measure: async () => {
        const rows = await runBenchmark();
        theirs.push(rows);
        return rows.length;
      },
    },
  ];
  await sideBySide(variants, rounds);
  // sideBySide's first round is a warm-up: keep the last `rounds` of each.
  const kept = <T>(list: T[]) => list.slice(list.length - rounds);
  const theirRows = (test: string) =>
    kept(theirs).map((rows) => {
      const row = rows.find((r) => r.test === test);
      if (!row) throw new Error(`redis-benchmark -t ping printed no ${test} row (got ${rows.map((r) => r.test).join(', ')})`);
      return row;
    });
  const us = (values: number[]) => {
    const { median, min, max } = spreadOf(values);
    return `${median.toFixed(0)} µs [${min.toFixed(0)}–${max.toFixed(0)}]`;
  };

  const findings: Finding[] = [];
  for (const engine of ENGINES) {
    const stats = kept(ours[engine]);
    const test = MATCHING_TEST[engine];
    const rows = theirRows(test);
    const avg = rows.map((r) => r.avgUs);
    log(`  ${engine.padEnd(10)} engine, ${n.toLocaleString('en-US')} sequential PINGs: p50 ${us(stats.map((s) => s.p50Us))}, avg ${us(stats.map((s) => s.avgUs))}, p99 ${us(stats.map((s) => s.p99Us))}`);
    log(`  redis-benchmark ${version} -c 1 -P 1 -n ${n.toLocaleString('en-US')} ${test}: avg ${us(avg)}, p50 ${us(rows.map((r) => r.p50Us))}, p99 ${us(rows.map((r) => r.p99Us))}`);
    findings.push({
      name: `sequential PING latency p50, ${engine} engine ÷ redis-benchmark -c 1 -P 1 avg`,
      unit: 'ratio',
      spread: roundRatios(stats.map((s) => s.p50Us), avg),
      // The goal is set for the raw engine; the client libraries' figures are stated beside it.
      goal: engine === 'raw' ? { bound: 'at most', value: 1.5 } : null,
      how: `latencyStats(doc).p50Us of executeRun(sequential, ${n.toLocaleString('en-US')} PINGs, app defaults: warm, memory and kernelTcp on) ÷ avg_latency_ms of ` +
        `\`redis-benchmark -c 1 -P 1 -n ${n} --csv -t ping\` (${test}, the same bytes on the wire), ${rounds} rounds side by side; per-round ratio`,
    });
  }
  return findings;
}
