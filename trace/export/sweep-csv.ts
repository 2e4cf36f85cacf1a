// A depth sweep as CSV in redis-benchmark's own `--csv` columns, so a docs author can put Pipescope's
// figures beside redis-benchmark's in the same spreadsheet or script. One row per depth, named like a
// redis-benchmark test with its pipeline depth ("PING -P 16"); quoted and formatted as redis-benchmark
// prints them (every field in double quotes, rps with 2 decimals, ms with 3, "\n" line ends).
//
// `rps` is the median ops/s of the depth's repeats (client socket). The latency columns come from each
// run's per-command latency statistics (sweep-format.ts `latency`, client socket: write → reply read),
// over the depth's repeats: avg is the mean over all its commands (every repeat sends the same number),
// min and max the smallest and largest of all its commands — exact — and p50/p95/p99 the median of the
// repeats' own percentiles (a percentile of all the commands would need every latency, which a sweep
// does not keep). A sweep recorded before runs kept latencies, or a percentile that too few commands
// cannot give (percentileNeeds), says "n/a": not measured, never a made-up 0 (pandas reads "n/a" as
// missing). When the sweep ran redis-benchmark beside it (`reference`), its own rows follow, named
// "… (redis-benchmark)": the median of the rps it printed and its own latency columns over the repeats
// the same way (its measure, not Pipescope's: with -P each command counts its pipeline's latency); "n/a"
// where it printed none (before Redis 7, or a sweep recorded before they were kept). Pure.
import { percentileNeeds } from '../derive/latency-stats.ts';
import { quotedCsvCell } from './export-escape.ts';
import { REFERENCE_TOOL, pointOpsPerSec, spreadOf, type Reference, type ReferenceLatency, type SweepDocument, type SweepLatency, type SweepPoint } from '../format/sweep-format.ts';

export const REDIS_BENCHMARK_CSV_COLUMNS = ['test', 'rps', 'avg_latency_ms', 'min_latency_ms', 'p50_latency_ms', 'p95_latency_ms', 'p99_latency_ms', 'max_latency_ms'] as const;

/** What a latency cell says when the sweep did not measure it. */
export const NOT_MEASURED = 'n/a';

const quoted = (cells: readonly string[]) => cells.map(quotedCsvCell).join(',');

const NO_LATENCIES: readonly string[] = REDIS_BENCHMARK_CSV_COLUMNS.slice(2).map(() => NOT_MEASURED);

function csvRow(test: string, rps: number, latencies: readonly string[] = NO_LATENCIES): string {
  return quoted([test, rps.toFixed(2), ...latencies]);
}

/** µs → redis-benchmark's ms with 3 decimals. */
const ms = (us: number) => (us / 1000).toFixed(3);

/** avg, min, p50, p95, p99, max (ms) over a depth's repeats, as the header says; n/a where not measured. */
export function pointLatencyCells(point: SweepPoint): string[] {
  const runs = point.runs.map((r) => r.latency).filter((l): l is SweepLatency => l !== undefined && l.count > 0);
  if (runs.length !== point.runs.length || runs.length === 0) return [...NO_LATENCIES];
  const count = runs.reduce((sum, l) => sum + l.count, 0);
  const avgUs = runs.reduce((sum, l) => sum + l.avgUs * l.count, 0) / count;
  const percentile = (p: 50 | 95 | 99, of: (l: SweepLatency) => number) =>
    runs.every((l) => l.count >= percentileNeeds(p)) ? ms(spreadOf(runs.map(of)).median) : NOT_MEASURED;
  return [
    ms(avgUs),
    ms(Math.min(...runs.map((l) => l.minUs))),
    percentile(50, (l) => l.p50Us),
    percentile(95, (l) => l.p95Us),
    percentile(99, (l) => l.p99Us),
    ms(Math.max(...runs.map((l) => l.maxUs))),
  ];
}

/**
 * redis-benchmark's own latency columns at a depth, over its repeats as for Pipescope's rows (each repeat
 * sent the same number of commands, so the mean of the averages is the average); n/a when it printed none.
 */
export function referenceLatencyCells(point: Reference['points'][number]): string[] {
  const runs = point.latencies;
  if (runs === undefined || runs.length === 0) return [...NO_LATENCIES];
  const median = (of: (l: ReferenceLatency) => number) => spreadOf(runs.map(of)).median.toFixed(3);
  return [
    (runs.reduce((sum, l) => sum + l.avgMs, 0) / runs.length).toFixed(3),
    Math.min(...runs.map((l) => l.minMs)).toFixed(3),
    median((l) => l.p50Ms),
    median((l) => l.p95Ms),
    median((l) => l.p99Ms),
    Math.max(...runs.map((l) => l.maxMs)).toFixed(3),
  ];
}

/** The sweep's CSV: header, Pipescope's rows (median ops/s per depth, client socket), then redis-benchmark's if it ran. */
export function sweepBenchmarkCsv(doc: SweepDocument): string {
  const { command } = doc.sweep;
  const lines = [quoted(REDIS_BENCHMARK_CSV_COLUMNS)];
  for (const point of doc.points) lines.push(csvRow(`${command} -P ${point.depth}`, pointOpsPerSec(point).median, pointLatencyCells(point)));
  for (const point of doc.reference?.points ?? []) {
    lines.push(csvRow(`${command} -P ${point.depth} (${REFERENCE_TOOL})`, spreadOf(point.opsPerSec).median, referenceLatencyCells(point)));
  }
  return `${lines.join('\n')}\n`;
}

/** pipescope-sweep-<command>-<first depth>-<last depth>-<sweep id>-redis-benchmark.csv, beside the sweep's JSON name. */
export function sweepCsvFileName(doc: SweepDocument): string {
  const { command, depths, id } = doc.sweep;
  return `pipescope-sweep-${command.toLowerCase()}-${depths[0]}-${depths.at(-1)}-${id}-redis-benchmark.csv`;
}
