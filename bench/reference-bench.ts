// Pipescope's engines against Redis's own C client on the same Redis, side by side: the raw engine
// pipelining PINGs 1,000 at a time against `redis-benchmark -c 1 -P 1000`, and the ioredis engine's
// sequential PINGs against `redis-benchmark -c 1 -P 1`. Ours are whole recorded runs (executeRun: the
// socket probe on, as every run has it), their ops/s as the trace reports them; redis-benchmark's are
// as it prints them, each run long enough for its millisecond clock.
import { connect } from '../server/redis/redis-target.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import { microsSince } from '../server/support/monotonic-clock.ts';
import type { RedisSession } from '../server/redis/redis-session.ts';
import { benchmarkRunner, measureDepth, redisBenchmarkVersion } from '../server/runs/redis-benchmark.ts';
import type { Finding } from './bench-report.ts';
import { roundRatios, sideBySide, spreadOf, type Variant } from './side-by-side.ts';

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

  // Plain ioredis runs in the same rounds: what any engine built on it can reach here.
  const bare = connect(session.target, 'pipescope-bench-bare-sequential');
  await bare.connect();
  const sequential = await compare(session, {
    ours: async () => (await executeRun(session, 'sequential', { command: 'PING', n: options.sequentialN, valueBytes: 0, engine: 'ioredis' })).totals.opsPerSec,
    context: async () => {
      const started = process.hrtime.bigint();
      for (let i = 0; i < options.sequentialN; i++) await bare.ping();
      return options.sequentialN / (microsSince(started) / 1e6);
    },
    depth: 1,
    perPoint: options.sequentialN,
    rounds: options.rounds,
  }).finally(() => bare.disconnect());
  log(`  ioredis engine, ${int(options.sequentialN)} PINGs sequentially: ${int(sequential.ours.median)} ops/s [${int(sequential.ours.min)}–${int(sequential.ours.max)}]`);
  log(`  redis-benchmark ${version} -c 1 -P 1 -n ${int(sequential.commands)} PING: ${int(sequential.theirs.median)} ops/s [${int(sequential.theirs.min)}–${int(sequential.theirs.max)}]`);
  const { context } = sequential;
  if (context) {
    log(`  plain ioredis (await ping() × ${int(options.sequentialN)}), same rounds: ${int(context.spread.median)} ops/s, ` +
      `${context.ratio.median.toFixed(2)}× redis-benchmark [${context.ratio.min.toFixed(2)}–${context.ratio.max.toFixed(2)}]: the ceiling for an engine on ioredis`);
  }

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

interface Comparison {
  ours: () => Promise<number>;
  /** Measured in the same rounds, reported beside the goal, not judged. */
  context?: () => Promise<number>;
  depth: number;
  perPoint: number;
  rounds: number;
}

async function compare(session: RedisSession, { ours, context, depth, perPoint, rounds }: Comparison) {
  const runOnce = benchmarkRunner(session.target, undefined, depth, ['PING']);
  // One calibration: the count redis-benchmark needs at this depth to be timed to ~1 %.
  const { commands } = await measureDepth(perPoint, 1, runOnce);
  const variants: Variant[] = [{ name: 'ours', measure: ours }, { name: 'theirs', measure: async () => (await runOnce(commands)).opsPerSec }];
  if (context) variants.push({ name: 'context', measure: context });
  const samples = await sideBySide(variants, rounds);
  const theirs = samples['theirs']!;
  return {
    commands,
    ours: spreadOf(samples['ours']!),
    theirs: spreadOf(theirs),
    ratio: roundRatios(samples['ours']!, theirs),
    context: context ? { spread: spreadOf(samples['context']!), ratio: roundRatios(samples['context']!, theirs) } : undefined,
  };
}
