// A depth sweep as CSV in redis-benchmark's own `--csv` columns, so a docs author can put Pipescope's
// figures beside redis-benchmark's in the same spreadsheet or script. One row per depth, named like a
// redis-benchmark test with its pipeline depth ("PING -P 16"); quoted and formatted as redis-benchmark
// prints them (every field in double quotes, rps with 2 decimals, ms with 3, "\n" line ends).
//
// What a sweep document holds per run is its total time and ops/s (client socket) and its socket and
// INFO counts, not per-command latencies (sweep runs keep only what their traces summed up: sweep-format.ts).
// So `rps` is the median ops/s of the depth's repeats and every latency column is "n/a": not measured,
// never a made-up 0 (pandas reads "n/a" as missing). When the sweep ran redis-benchmark beside it
// (`reference`), its own ops/s per depth follow as rows named "… (redis-benchmark)", latencies "n/a" too
// (the sweep kept only the ops/s it printed). Pure.
import { REFERENCE_TOOL, pointOpsPerSec, spreadOf, type SweepDocument } from './sweep-format.ts';

export const REDIS_BENCHMARK_CSV_COLUMNS = ['test', 'rps', 'avg_latency_ms', 'min_latency_ms', 'p50_latency_ms', 'p95_latency_ms', 'p99_latency_ms', 'max_latency_ms'] as const;

/** What a latency cell says when the sweep did not measure it. */
export const NOT_MEASURED = 'n/a';

const quoted = (cells: readonly string[]) => cells.map((c) => `"${c.replaceAll('"', '""')}"`).join(',');

function csvRow(test: string, rps: number): string {
  return quoted([test, rps.toFixed(2), ...REDIS_BENCHMARK_CSV_COLUMNS.slice(2).map(() => NOT_MEASURED)]);
}

/** The sweep's CSV: header, Pipescope's rows (median ops/s per depth, client socket), then redis-benchmark's if it ran. */
export function sweepBenchmarkCsv(doc: SweepDocument): string {
  const { command } = doc.sweep;
  const lines = [quoted(REDIS_BENCHMARK_CSV_COLUMNS)];
  for (const point of doc.points) lines.push(csvRow(`${command} -P ${point.depth}`, pointOpsPerSec(point).median));
  for (const point of doc.reference?.points ?? []) {
    lines.push(csvRow(`${command} -P ${point.depth} (${REFERENCE_TOOL})`, spreadOf(point.opsPerSec).median));
  }
  return `${lines.join('\n')}\n`;
}

/** pipescope-sweep-<command>-<first depth>-<last depth>-<sweep id>-redis-benchmark.csv, beside the sweep's JSON name. */
export function sweepCsvFileName(doc: SweepDocument): string {
  const { command, depths, id } = doc.sweep;
  return `pipescope-sweep-${command.toLowerCase()}-${depths[0]}-${depths.at(-1)}-${id}-redis-benchmark.csv`;
}
