// The Pipescope sweep document, version 1: throughput against pipeline depth, the docs' figure made
// from real runs. Each point is `repeats` chunked runs of `perPoint` commands in pipelines of `depth`,
// untraced (no MONITOR, no strace), so their times are Redis's real throughput; each run keeps only
// what its trace document summed up (totals and counts, with their sources, and its commands' latency
// statistics — an optional field, absent in sweeps recorded before it was kept). The live view, the file
// import/export and the CLI recorder (`record sweep --out`) all read and write this one document.
import { z } from 'zod';
import { CommandNameSchema, CountsSchema, RecorderSchema, RedisInfoSchema, ServerCpuSchema, TotalsSchema } from './trace-format.ts';
import { ENGINES, MAX_COMMANDS, commandTakesValue, engineField, jitterMsField, rttMsField, valueBytesField, wholeNumber } from './run-request.ts';

export const SWEEP_FORMAT = 'pipescope-sweep';
export const SWEEP_FORMAT_VERSION = 1;

export const MAX_SWEEP_DEPTHS = 24;
export const MAX_SWEEP_REPEATS = 10;
/** The fewest pairs a 95 % sign-test interval needs (trace/derive/paired-verdict.ts), so a sweep can compare its depths. */
export const DEFAULT_SWEEP_REPEATS = 6;
/** perPoint × repeats × depths: what one sweep may send in all. */
export const MAX_SWEEP_COMMANDS = 20_000_000;
/** Round trips × added RTT: a sweep through the delay proxy must end within this. */
export const MAX_SWEEP_WAIT_MS = 10 * 60 * 1000;
export const MAX_SWEEP_PAYLOAD_BYTES = 256 * 1024 * 1024;

/** 1, 2, 4, … up to max; max itself is the last depth even when it is not a power of two. */
export function powersOfTwoUpTo(max: number): number[] {
  const depths: number[] = [];
  for (let d = 1; d < max; d *= 2) depths.push(d);
  depths.push(max);
  return depths;
}

/** Round trips the sweep waits for: a pipeline of depth d is one round trip for d commands. */
export function sweepRoundTrips(spec: { depths: readonly number[]; perPoint: number; repeats: number }): number {
  return spec.depths.reduce((sum, d) => sum + Math.ceil(spec.perPoint / Math.max(1, d)), 0) * spec.repeats;
}

export const SweepSpecSchema = z
  .object({
    command: CommandNameSchema,
    valueBytes: valueBytesField,
    /** Pipeline depths, increasing; each is one point of the figure. */
    depths: z
      .array(wholeNumber('each depth', 1, MAX_COMMANDS))
      .min(1, 'choose at least one depth')
      .max(MAX_SWEEP_DEPTHS, `at most ${MAX_SWEEP_DEPTHS} depths`)
      .refine((d) => d.every((depth, i) => i === 0 || depth > d[i - 1]!), 'depths must be increasing, each once'),
    /** Commands sent at each depth, per repeat. */
    perPoint: wholeNumber('perPoint', 1, MAX_COMMANDS).default(10_000),
    /** Rounds: each depth once per round. Six or more give each comparison between depths a 95 % interval. */
    repeats: wholeNumber('repeats', 1, MAX_SWEEP_REPEATS).default(DEFAULT_SWEEP_REPEATS),
    engine: engineField,
    rttMs: rttMsField,
    jitterMs: jitterMsField,
    /** Also run Redis's own redis-benchmark (-c 1 -P depth) at each depth, when it is installed. */
    reference: z.boolean({ error: 'reference must be true or false' }).default(false),
  })
  .refine((s) => s.command !== 'GET-COMPUTE-SET', { message: 'a sweep pipelines its commands; a GET-COMPUTE-SET step cannot be pipelined', path: ['command'] })
  .refine((s) => (s.depths.at(-1) ?? 0) <= s.perPoint, { message: 'the deepest pipeline cannot hold more than perPoint commands', path: ['depths'] })
  .refine((s) => s.perPoint * s.repeats * s.depths.length <= MAX_SWEEP_COMMANDS, {
    message: `perPoint × repeats × depths must be at most ${MAX_SWEEP_COMMANDS.toLocaleString('en-US')} commands`,
    path: ['perPoint'],
  })
  .refine((s) => !commandTakesValue(s.command) || s.perPoint * s.valueBytes <= MAX_SWEEP_PAYLOAD_BYTES, {
    message: `perPoint × valueBytes must be at most ${MAX_SWEEP_PAYLOAD_BYTES / 1024 / 1024} MiB`,
    path: ['valueBytes'],
  })
  .refine((s) => s.rttMs === 0 || sweepRoundTrips(s) * s.rttMs <= MAX_SWEEP_WAIT_MS, {
    message: `at this RTT the sweep would wait more than ${MAX_SWEEP_WAIT_MS / 60_000} minutes for round trips; use fewer commands, repeats or shallow depths`,
    path: ['rttMs'],
  });
export type SweepSpec = z.infer<typeof SweepSpecSchema>;

const count = z.number().int().nonnegative();

const micros = z.number().nonnegative().finite();

export const SweepLatencySchema = z.object({
  count: count.describe('Commands the statistics cover.'),
  avgUs: micros.describe('Mean latency, µs.'),
  minUs: micros.describe('Lowest latency, µs.'),
  p50Us: micros.describe('Median latency, µs.'),
  p95Us: micros.describe('95th percentile, µs.'),
  p99Us: micros.describe('99th percentile, µs.'),
  maxUs: micros.describe('Highest latency, µs.'),
}).describe(
  'Per-command latency over one sweep run\'s commands, client socket: from the write that carried a command to the ' +
    'read that completed its reply (trace/derive/latency-stats.ts). Percentiles are nearest-rank.',
);
export type SweepLatency = z.infer<typeof SweepLatencySchema>;

export const SweepRunSchema = z.object({
  totals: TotalsSchema.pick({ durationUs: true, opsPerSec: true }).describe('The run\'s totals.durationUs and opsPerSec, as in a trace (doneUs is not kept here).'),
  counts: CountsSchema.describe('The run\'s counts, as in a trace.'),
  latency: SweepLatencySchema.optional().describe('Its commands\' latencies, summed up (for the redis-benchmark columns). Absent in sweeps recorded before it was kept.'),
  serverCpu: ServerCpuSchema.optional().describe('Redis\'s CPU time over the run, as in a trace. Absent in sweeps recorded before it was kept.'),
}).describe('One chunked run of the sweep: what its trace document summed up.');
export type SweepRun = z.infer<typeof SweepRunSchema>;

export const SweepPointSchema = z.object({
  depth: z.number().int().positive().describe('Commands per pipeline.'),
  runs: z.array(SweepRunSchema).min(1).describe('One per repeat, in the order they ran.'),
}).describe('One depth of the figure.');
export type SweepPoint = z.infer<typeof SweepPointSchema>;

export const REFERENCE_TOOL = 'redis-benchmark';

/** redis-benchmark times a run in whole milliseconds: a reference run must last this long to read to ~1 %. */
export const REFERENCE_MIN_RUN_MS = 100;

/** Who ran one run of a sweep: Pipescope's own client, or Redis's redis-benchmark beside it. */
export type SweepTool = 'pipescope' | typeof REFERENCE_TOOL;

/** One run in a sweep's run order: its tool, its depth, and which repeat (1-based) at that depth it is. */
export interface SweepStep {
  tool: SweepTool;
  depth: number;
  repeat: number;
}

type SweepPlan = Pick<SweepSpec, 'depths' | 'repeats' | 'reference'>;

/** Runs a spec asks for: each depth × repeats, twice over with the reference. */
export function sweepRunCount(spec: SweepPlan): number {
  return spec.depths.length * spec.repeats * (spec.reference ? 2 : 1);
}

/**
 * Which run is the k-th (1-based) of a sweep. The one run order, shared by the backend that runs a
 * sweep and the page that shows its progress: in rounds, each depth once per round, increasing in
 * even rounds and decreasing in odd ones (so a slow spell of the machine falls on every depth alike,
 * and repeat i of two depths, a moment apart, form a pair); then redis-benchmark depth by depth,
 * repeat by repeat. Null past the end (or for k not a whole number ≥ 1).
 */
export function sweepRunAt(spec: SweepPlan, k: number): SweepStep | null {
  const perTool = spec.depths.length * spec.repeats;
  if (!Number.isInteger(k) || k < 1 || k > sweepRunCount(spec)) return null;
  const i = (k - 1) % perTool;
  if (k > perTool) return { tool: REFERENCE_TOOL, depth: spec.depths[Math.floor(i / spec.repeats)]!, repeat: (i % spec.repeats) + 1 };
  const round = Math.floor(i / spec.depths.length);
  const place = i % spec.depths.length;
  const depth = spec.depths[round % 2 === 0 ? place : spec.depths.length - 1 - place]!;
  return { tool: 'pipescope', depth, repeat: round + 1 };
}

const millis = z.number().nonnegative().finite();

export const ReferenceLatencySchema = z.object({
  avgMs: millis.describe('avg_latency_ms.'),
  minMs: millis.describe('min_latency_ms.'),
  p50Ms: millis.describe('p50_latency_ms.'),
  p95Ms: millis.describe('p95_latency_ms.'),
  p99Ms: millis.describe('p99_latency_ms.'),
  maxMs: millis.describe('max_latency_ms.'),
}).describe(
  'One redis-benchmark run\'s latency columns, ms, as its `--csv` printed them (Redis 7 and later; 3 decimals). Its own ' +
    'measure: with -P, each command\'s latency is that of the pipeline that carried it.',
);
export type ReferenceLatency = z.infer<typeof ReferenceLatencySchema>;

export const ReferenceSchema = z.object({
  tool: z.literal(REFERENCE_TOOL),
  version: z.string().describe('redis-benchmark\'s version.'),
  args: z.array(z.string()).describe('The command line, password left out.'),
  points: z.array(
    z.object({
      depth: z.number().int().positive().describe('Commands per pipeline (-P).'),
      commands: z.number().int().positive().optional().describe(
        `Commands per redis-benchmark run at this depth: perPoint, or more where perPoint would take it under ${REFERENCE_MIN_RUN_MS} ms ` +
          '(it times a run in whole milliseconds). Absent in older files, which ran perPoint everywhere.',
      ),
      opsPerSec: z.array(z.number().nonnegative().finite()).min(1).describe('As redis-benchmark printed them, one per repeat.'),
      latencies: z.array(ReferenceLatencySchema).optional().describe(
        'Its latency columns, one per repeat beside opsPerSec. Absent when it printed none (before Redis 7) and in files recorded before they were kept.',
      ),
    }).refine((p) => p.latencies === undefined || p.latencies.length === p.opsPerSec.length, {
      message: 'reference latencies: one per repeat, as many as opsPerSec',
      path: ['latencies'],
    }),
  ).describe('One per depth, in the sweep\'s order.'),
}).describe('Redis\'s own benchmark client at the same depths: `redis-benchmark -c 1 -P depth -n commands`.');
export type Reference = z.infer<typeof ReferenceSchema>;

export const SweepInfoSchema = z.object({
  id: z.string().min(1).max(64).describe('Unique id; also the key namespace the sweep\'s keys lived under.'),
  startedAt: z.iso.datetime().describe('Wall-clock time the sweep started, ISO 8601 (UTC).'),
  command: CommandNameSchema,
  valueBytes: count.describe('Size of the SET value (or of the value GET reads), bytes.'),
  engine: z.enum(ENGINES).describe('The client that ran the sweep\'s runs.'),
  perPoint: z.number().int().positive().describe('Commands sent at each depth, per repeat.'),
  repeats: z.number().int().positive().describe('Runs at each depth.'),
  depths: z.array(z.number().int().positive()).min(1).describe('Pipeline depths, increasing.'),
  rtt: z.object({
    addedMs: z.number().nonnegative().finite().describe('Round-trip time added by the delay proxy, ms.'),
    jitterMs: z.number().nonnegative().finite().describe('± its jitter, ms.'),
  }).describe('The delay proxy\'s settings for every run of the sweep.'),
  serverTraced: z.literal(false).describe('Always false: sweep runs are never server-traced, so their throughput is Redis\'s real one.'),
  order: z.literal('rounds').optional().describe(
    'Optional (added within version 1). \'rounds\': each depth once per round, the order alternating, so repeat i of two depths ' +
      'form a pair (sweepRunAt). Absent: recorded depth by depth, repeat by repeat.',
  ),
}).describe('The sweep\'s settings.');
export type SweepInfo = z.infer<typeof SweepInfoSchema>;

export const SweepDocumentSchema = z.object({
  format: z.literal(SWEEP_FORMAT).describe('What the file is.'),
  version: z.literal(SWEEP_FORMAT_VERSION).describe('The format\'s version.'),
  sweep: SweepInfoSchema,
  redis: RedisInfoSchema,
  recorder: RecorderSchema,
  points: z.array(SweepPointSchema).describe('One per depth, in the order of sweep.depths.'),
  reference: ReferenceSchema.nullable().describe('null when redis-benchmark was not asked for (or is not installed: then `referenceMissing` says why).'),
  referenceMissing: z.string().optional().describe('Why there is no reference, when one was asked for.'),
}).describe(
  'Throughput against pipeline depth: at each depth, `repeats` chunked runs of `perPoint` commands in pipelines of that ' +
    'depth, untraced (no MONITOR, no strace), each kept as what its trace document summed up.',
);
export type SweepDocument = z.infer<typeof SweepDocumentSchema>;

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Median (the mean of the middle two for an even count, as repeats often are), min and max. */
export function spreadOf(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  const median = sorted.length === 0 ? 0 : sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0 };
}

/** Ops/s of a point's repeats (client socket: first write to last reply). */
export const pointOpsPerSec = (point: SweepPoint): Spread => spreadOf(point.runs.map((r) => r.totals.opsPerSec));

/** Redis read events per command (INFO total_reads_processed delta ÷ commands). */
export const pointServerReadsPerCommand = (point: SweepPoint, perPoint: number): Spread =>
  spreadOf(point.runs.map((r) => r.counts.server.reads / perPoint));

/**
 * Redis's CPU time per command (µs), over the runs that measured it; null when none did (an INFO-cpu
 * Redis and runs shorter than it can carry, or a sweep recorded before it was kept).
 */
export function pointServerCpuPerCommand(point: SweepPoint, perPoint: number): Spread | null {
  const per = point.runs.flatMap((r) => (r.serverCpu && 'totalUs' in r.serverCpu ? [r.serverCpu.totalUs / perPoint] : []));
  return per.length > 0 ? spreadOf(per) : null;
}

/** Client socket writes per command: 1 for depth 1, 1/depth once each pipeline is one write. */
export const pointClientWritesPerCommand = (point: SweepPoint, perPoint: number): Spread =>
  spreadOf(point.runs.map((r) => r.counts.client.writes / perPoint));
