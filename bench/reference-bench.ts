// Pipescope's engines against Redis's own C client on the same Redis, side by side: the raw engine
// pipelining PINGs 1,000 at a time against `redis-benchmark -c 1 -P 1000`, and the ioredis engine's
// sequential PINGs against `redis-benchmark -c 1 -P 1`. Ours are whole recorded runs (executeRun: the
// socket probe on, as every run has it), their ops/s as the trace reports them; redis-benchmark's are
// as it prints them, each run long enough for its millisecond clock.
import { executeRun } from '../server/run-executor.ts';
import type { RedisSession } from '../server/redis-session.ts';
import { benchmarkRunner, measureDepth, redisBenchmarkVersion } from '../server/redis-benchmark.ts';
import type { Finding } from './bench-report.ts';
import { roundRatios, sideBySide, spreadOf } from './side-by-side.ts';

export interface ReferenceOptions {
  /** PINGs per raw-engine run, in pipelines of 1,000. */
  rawN: number;
  /** PINGs per sequential run. */
  sequentialN: number;
  rounds: number;
}

const DEPTH = 1000;

export async function referenceBench(session: RedisSession, options: ReferenceOptions, log: (line: string) => void): Promise<Finding[]> {
  const version = await redisBenchmarkVersion();
  if (!version) throw new Error('redis-benchmark is not installed (Debian: apt-get install redis-tools); it is the reference these ratios need.');
  const int = (x: number) => Math.round(x).toLocaleString('en-US');

  const pipelined = await compare(session, {
    ours: async () => (await executeRun(session, 'chunked', { command: 'PING', n: options.rawN, valueBytes: 0, chunk: DEPTH, engine: 'raw' })).totals.opsPerSec,
    depth: DEPTH,
    perPoint: options.rawN,
    rounds: options.rounds,
  });
  log(`  raw engine, ${int(options.rawN)} PINGs in pipelines of ${int(DEPTH)}: ${int(pipelined.ours.median)} ops/s [${int(pipelined.ours.min)}–${int(pipelined.ours.max)}]`);
  log(`  redis-benchmark ${version} -c 1 -P ${DEPTH} -n ${int(pipelined.commands)} PING: ${int(pipelined.theirs.median)} ops/s [${int(pipelined.theirs.min)}–${int(pipelined.theirs.max)}]`);

  const sequential = await compare(session, {
    ours: async () => (await executeRun(session, 'sequential', { command: 'PING', n: options.sequentialN, valueBytes: 0, engine: 'ioredis' })).totals.opsPerSec,
    depth: 1,
    perPoint: options.sequentialN,
    rounds: options.rounds,
  });
  log(`  ioredis engine, ${int(options.sequentialN)} PINGs sequentially: ${int(sequential.ours.median)} ops/s [${int(sequential.ours.min)}–${int(sequential.ours.max)}]`);
  log(`  redis-benchmark ${version} -c 1 -P 1 -n ${int(sequential.commands)} PING: ${int(sequential.theirs.median)} ops/s [${int(sequential.theirs.min)}–${int(sequential.theirs.max)}]`);

  return [
    {
      name: `raw engine at depth ${DEPTH} ÷ redis-benchmark -P ${DEPTH} -c 1`,
      unit: 'ratio',
      spread: pipelined.ratio,
      goal: { bound: 'at least', value: 0.5 },
      how: `ops/s, ${options.rounds} rounds side by side; ours a recorded run of ${int(options.rawN)} PINGs (socket probe on), theirs as printed`,
    },
    {
      name: 'sequential ioredis engine ÷ redis-benchmark -P 1 -c 1',
      unit: 'ratio',
      spread: sequential.ratio,
      goal: { bound: 'at least', value: 0.75 },
      how: `ops/s, ${options.rounds} rounds side by side; ours a recorded run of ${int(options.sequentialN)} PINGs (socket probe on), theirs as printed`,
    },
  ];
}

async function compare(
  session: RedisSession,
  { ours, depth, perPoint, rounds }: { ours: () => Promise<number>; depth: number; perPoint: number; rounds: number },
) {
  const runOnce = benchmarkRunner(session.target, undefined, depth, ['PING']);
  // One calibration: the count redis-benchmark needs at this depth to be timed to ~1 %.
  const { commands } = await measureDepth(perPoint, 1, runOnce);
  const samples = await sideBySide([{ name: 'ours', measure: ours }, { name: 'theirs', measure: () => runOnce(commands) }], rounds);
  return { commands, ours: spreadOf(samples['ours']!), theirs: spreadOf(samples['theirs']!), ratio: roundRatios(samples['ours']!, samples['theirs']!) };
}
