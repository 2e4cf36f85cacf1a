// The private Redis Cluster, measured: how long it takes to be ready, how the raw engine split by node
// compares with Redis's own client on the same cluster, and what cluster mode costs work that stays on
// one node. The bench starts its own cluster (3 masters, from the same redis-server as the private Redis)
// and stops it after: redis-benchmark's keys die with it, and the runs' keys are deleted by the runs.
//
// - Start-up: from the first node's spawn to ready (every node: cluster_state:ok, 16384 slots, every node
//   known), several starts one after another; median with its bootstrap 95 % interval, and the range.
// - Raw engine ÷ redis-benchmark: recorded `pipeline` runs of the raw engine, 48 SETs whose keys spread
//   over the slots (about 16 per master: each master's share one pipeline, all written at once), their
//   ops/s as the trace reports them (commands ÷ t0 to the last reply), against `redis-benchmark --cluster
//   -c 1 -P 16 -t set` on the same cluster (with -c 1 its one client talks to one master, pipelines of 16
//   under that master's hash tag), in rounds side by side.
// - One node's work: a pipeline of SETs whose keys share one {hash tag}, on the master serving it, ÷ the
//   same bytes on the single private Redis, on the raw engine's socket (first write to last reply), in
//   rounds side by side: what cluster mode (its slot bookkeeping per key) costs Redis. Information.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { bootstrapMedian } from '../trace/derive/bootstrap.ts';
import { RawDriver } from '../server/drivers/raw-driver.ts';
import { encode } from '../server/protocol/resp-encoder.ts';
import { RespError } from '../server/protocol/resp-reply-reader.ts';
import { calculateSlot } from '../server/redis/keyspace.ts';
import { startPrivateCluster, type PrivateCluster } from '../server/redis/private-redis-cluster.ts';
import { RedisSession } from '../server/redis/redis-session.ts';
import { targetFromUrl, type RedisTarget } from '../server/redis/redis-target.ts';
import { commandsToLastLongEnough, parseBenchmarkCsv, redisBenchmarkBinary, redisBenchmarkVersion } from '../server/runs/redis-benchmark.ts';
import { executeRun } from '../server/runs/run-executor.ts';
import type { Finding } from './bench-report.ts';
import { roundRatios, sideBySide, spreadOf, type Variant } from './side-by-side.ts';

const run = promisify(execFile);

export interface ClusterBenchOptions {
  /** Starts of the cluster, one after another, for its time to ready. */
  starts: number;
  /** Recorded pipeline runs per round (their ops/s pooled), and rounds, against redis-benchmark. */
  runsPerRound: number;
  rounds: number;
  /** SETs per pipeline of the one-node comparison, and its rounds. */
  oneNodeN: number;
  oneNodeRounds: number;
}

/** redis-benchmark's pipeline depth, and ours per master. */
const DEPTH = 16;
/** Each SET's value, as redis-benchmark's default (-d 3). */
const VALUE_BYTES = 3;

export async function clusterBench(single: RedisSession, options: ClusterBenchOptions, log: (line: string) => void): Promise<Finding[]> {
  const version = await redisBenchmarkVersion();
  if (!version) throw new Error('redis-benchmark is not installed (Debian: apt-get install redis-tools); the cluster bench compares with it.');
  const findings: Finding[] = [await startUp(options.starts, log)];
  const cluster = await startPrivateCluster();
  try {
    findings.push(await againstRedisBenchmark(cluster, version, options, log));
    findings.push(await oneNodeWork(cluster, single.target, options, log));
  } finally {
    await cluster.stop();
  }
  return findings;
}

/** "median 1.05, bootstrap 95 % interval 0.98–1.12" of the per-round ratios a[i] ÷ b[i]. */
function ratioInterval(a: readonly number[], b: readonly number[]): string {
  const { median, low, high } = bootstrapMedian(a.map((value, i) => value / b[i]!));
  return `median ${median.toFixed(2)}, bootstrap 95 % interval ${low.toFixed(2)}–${high.toFixed(2)}`;
}

async function startUp(starts: number, log: (line: string) => void): Promise<Finding> {
  const readyMs: number[] = [];
  for (let i = 0; i < starts; i++) {
    const cluster = await startPrivateCluster();
    readyMs.push(cluster.readyMs);
    await cluster.stop();
  }
  const { median, low, high } = bootstrapMedian(readyMs);
  const spread = spreadOf(readyMs);
  log(`  3 masters, start to ready: median ${(median / 1000).toFixed(2)} s, 95 % interval ${(low / 1000).toFixed(2)}–${(high / 1000).toFixed(2)} s ` +
    `(${starts} starts: ${readyMs.map((ms) => Math.round(ms)).join(', ')} ms)`);
  return {
    name: 'private cluster (3 masters): start to ready',
    unit: 'ms',
    spread,
    goal: { bound: 'at most', value: 3000 },
    how: `${starts} starts one after another, first spawn to every node ready; median ${Math.round(median)} ms, bootstrap 95 % interval ${Math.round(low)}–${Math.round(high)} ms`,
  };
}

async function againstRedisBenchmark(cluster: PrivateCluster, version: string, options: ClusterBenchOptions, log: (line: string) => void): Promise<Finding> {
  const masters = cluster.nodes.filter((node) => node.role === 'master');
  const session = await RedisSession.open(targetFromUrl(`redis://${masters[0]!.host}:${masters[0]!.port}`));
  const n = DEPTH * masters.length;
  const int = (x: number) => Math.round(x).toLocaleString('en-US');
  try {
    const theirsOnce = async (commands: number) => {
      const args = ['-h', masters[0]!.host, '-p', String(masters[0]!.port), '--cluster', '-c', '1', '-P', String(DEPTH), '-n', String(commands), '-d', String(VALUE_BYTES), '-t', 'set', '--csv', '-q'];
      const { stdout } = await run(redisBenchmarkBinary(), args, { maxBuffer: 1024 * 1024, timeout: 120_000 });
      // In cluster mode it first lists the masters it found: only its CSV lines are its result.
      return parseBenchmarkCsv(stdout.split('\n').filter((line) => line.startsWith('"')).join('\n'));
    };
    // As many SETs as redis-benchmark needs to time its run to ~1 % by its millisecond clock.
    let commands = 100_000;
    for (let first = await theirsOnce(commands); commandsToLastLongEnough(commands, first.opsPerSec) !== commands; first = await theirsOnce(commands)) {
      commands = commandsToLastLongEnough(commands, first.opsPerSec);
    }
    const ours = async () => {
      let done = 0;
      let us = 0;
      for (let i = 0; i < options.runsPerRound; i++) {
        const doc = await executeRun(session, 'pipeline', { command: 'SET', n, valueBytes: VALUE_BYTES, engine: 'raw' });
        done += doc.commands.length;
        us += doc.totals.doneUs;
      }
      return done / (us / 1e6);
    };
    const variants: Variant[] = [{ name: 'ours', measure: ours }, { name: 'theirs', measure: async () => (await theirsOnce(commands)).opsPerSec }];
    const samples = await sideBySide(variants, options.rounds);
    const oursSpread = spreadOf(samples['ours']!);
    const theirsSpread = spreadOf(samples['theirs']!);
    log(`  raw engine split by node, pipelines of ${n} SETs over ${masters.length} masters (~${DEPTH} each, in parallel), ${options.runsPerRound} recorded runs a round: ` +
      `${int(oursSpread.median)} ops/s [${int(oursSpread.min)}–${int(oursSpread.max)}]`);
    log(`  redis-benchmark ${version} --cluster -c 1 -P ${DEPTH} -t set -n ${int(commands)}: ${int(theirsSpread.median)} ops/s [${int(theirsSpread.min)}–${int(theirsSpread.max)}]`);
    const interval = ratioInterval(samples['ours']!, samples['theirs']!);
    log(`  ours ÷ theirs per round: ${interval}`);
    return {
      name: `raw engine split by node ÷ redis-benchmark --cluster -c 1 -P ${DEPTH}`,
      unit: 'ratio',
      spread: roundRatios(samples['ours']!, samples['theirs']!),
      goal: { bound: 'at least', value: 0.5 },
      how: `ops/s, ${options.rounds} rounds side by side on the bench's own 3-master cluster; ours ${options.runsPerRound} recorded pipeline runs of ${n} SETs a round ` +
        `(socket probes on; commands ÷ t0 to last reply, pooled), theirs as printed (one client, one master); ${interval}`,
    };
  } finally {
    await session.close();
  }
}

async function oneNodeWork(cluster: PrivateCluster, single: RedisTarget, options: ClusterBenchOptions, log: (line: string) => void): Promise<Finding> {
  const tag = 'pipescope:bench:{cluster-cost}';
  const slot = calculateSlot(tag);
  const owner = cluster.nodes.find((node) => node.role === 'master' && node.slots![0] <= slot && slot <= node.slots![1])!;
  const keys = Array.from({ length: options.oneNodeN }, (_, i) => `${tag}:${i}`);
  const value = 'x'.repeat(VALUE_BYTES);
  const batch = Buffer.concat(keys.map((key) => encode(['SET', key, value])));
  const unlink = Buffer.concat(keys.map((key) => encode(['UNLINK', key])));
  const onCluster = await RawDriver.open(targetFromUrl(`redis://${owner.host}:${owner.port}`), 'pipescope-bench-cluster-one-node');
  const onSingle = await RawDriver.open(single, 'pipescope-bench-single-one-node');
  const timed = (driver: RawDriver) => async () => {
    let failed: string | undefined;
    const started = process.hrtime.bigint();
    await driver.write(batch, keys.length, (reply) => {
      if (reply instanceof RespError) failed ??= reply.message;
    });
    const us = Number(process.hrtime.bigint() - started) / 1000;
    if (failed) throw new Error(`a SET of the one-node comparison was refused: ${failed}`);
    return us;
  };
  try {
    const samples = await sideBySide([{ name: 'cluster', measure: timed(onCluster) }, { name: 'single', measure: timed(onSingle) }], options.oneNodeRounds);
    const ratio = roundRatios(samples['cluster']!, samples['single']!);
    const ms = (us: number) => (us / 1000).toFixed(2);
    log(`  one pipeline of ${options.oneNodeN.toLocaleString('en-US')} SETs under one hash tag: on the cluster's master ${ms(spreadOf(samples['cluster']!).median)} ms, ` +
      `on the single private Redis ${ms(spreadOf(samples['single']!).median)} ms; ratio per round ${ratioInterval(samples['cluster']!, samples['single']!)}`);
    return {
      name: 'one node\'s work: cluster master ÷ single Redis (time)',
      unit: 'ratio',
      spread: ratio,
      goal: null,
      how: `one pipeline of ${options.oneNodeN} SETs (keys under one {hash tag}) on the raw engine's socket, first write to last reply, ` +
        `${options.oneNodeRounds} rounds side by side: the master serving the tag vs the single private Redis; ${ratioInterval(samples['cluster']!, samples['single']!)}`,
    };
  } finally {
    for (const driver of [onCluster, onSingle]) await driver.write(unlink, keys.length, () => {}).finally(() => driver.disconnect());
  }
}
