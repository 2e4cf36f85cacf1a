// Flags of `npm run bench`: which parts to measure, and how big. The full run is what the figures in
// docs/benchmarks.md come from; --quick is a smoke run of every part with small sizes (its figures say little).
import { CliError, strictParse } from '../server/app/cli/cli-options.ts';

export const BENCH_PARTS = ['client', 'reference', 'first-write', 'latency', 'observe', 'trace-size', 'browser', 'websocket', 'default-runs', 'player-size', 'first-round-trip', 'probe-cost', 'added-delay', 'cluster'] as const;
export type BenchPart = (typeof BENCH_PARTS)[number];

export interface BenchSizes {
  /** PINGs per pipelined batch, and rounds, of the ioredis engine overhead. */
  overhead: { n: number; rounds: number };
  /** Raw engine PINGs at depth 1,000, sequential PINGs, and rounds, against redis-benchmark. */
  reference: { rawN: number; sequentialN: number; rounds: number };
  /** Sequential INCRs per run, and rounds, of first write − t0. */
  firstWrite: { n: number; rounds: number };
  /** Sequential PINGs per run (ours and redis-benchmark's), and rounds, of the latency comparison. */
  latency: { n: number; rounds: number };
  /** Requests of the app's default form sent over its WebSocket. */
  defaultRuns: { requests: number };
  /** Commands of the recorded trace (trace-size measures the same trace), fresh page loads and pan/zoom steps. */
  render: { n: number; loads: number; steps: number };
  /** Commands per live run; runs per workload. */
  websocket: { n: number; sequentialN: number; repeats: number; delayRuns: number };
  /** The observing port: PING pairs per round and rounds (latency); redis-benchmark PINGs and rounds (throughput). */
  observe: { pairs: number; rounds: number; throughputN: number; throughputRounds: number };
  /** Default-form requests (first round trip) and rounds (probe cost, added delay) of the small-runs parts. */
  smallRuns: { requests: number; rounds: number };
  /** The private cluster: starts timed; recorded runs per round and rounds against redis-benchmark; one node's pipeline and its rounds. */
  cluster: { starts: number; runsPerRound: number; rounds: number; oneNodeN: number; oneNodeRounds: number };
}

export interface BenchOptions {
  parts: readonly BenchPart[];
  sizes: BenchSizes;
  quick: boolean;
  /** Also write the findings as JSON here. */
  json: string | undefined;
}

export const FULL_SIZES: BenchSizes = {
  overhead: { n: 10_000, rounds: 60 },
  reference: { rawN: 200_000, sequentialN: 10_000, rounds: 11 },
  firstWrite: { n: 10, rounds: 31 },
  latency: { n: 10_000, rounds: 11 },
  defaultRuns: { requests: 20 },
  render: { n: 100_000, loads: 7, steps: 20 },
  websocket: { n: 100_000, sequentialN: 10_000, repeats: 3, delayRuns: 7 },
  observe: { pairs: 2_000, rounds: 7, throughputN: 200_000, throughputRounds: 7 },
  smallRuns: { requests: 10, rounds: 30 },
  cluster: { starts: 7, runsPerRound: 20, rounds: 11, oneNodeN: 10_000, oneNodeRounds: 31 },
};

export const QUICK_SIZES: BenchSizes = {
  overhead: { n: 2_000, rounds: 3 },
  reference: { rawN: 20_000, sequentialN: 1_000, rounds: 2 },
  firstWrite: { n: 10, rounds: 2 },
  latency: { n: 1_000, rounds: 2 },
  defaultRuns: { requests: 2 },
  render: { n: 20_000, loads: 1, steps: 4 },
  websocket: { n: 20_000, sequentialN: 1_000, repeats: 1, delayRuns: 1 },
  observe: { pairs: 300, rounds: 2, throughputN: 20_000, throughputRounds: 2 },
  smallRuns: { requests: 1, rounds: 2 },
  cluster: { starts: 2, runsPerRound: 3, rounds: 2, oneNodeN: 1_000, oneNodeRounds: 3 },
};

export const BENCH_USAGE = `Usage: npm run bench -- [--only ${BENCH_PARTS.join(',')}] [--quick] [--json FILE]
  --only   measure only these parts (default: all)
  --quick  small sizes and few rounds: checks that every part runs; its figures say little
  --json   also write the findings as JSON to FILE`;

export function parseBenchOptions(argv: string[]): BenchOptions | 'help' {
  const { values } = strictParse(argv, {
    only: { type: 'string' },
    quick: { type: 'boolean' },
    json: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const parts = values.only === undefined ? [...BENCH_PARTS] : values.only.split(',').map((p) => p.trim());
  const unknown = parts.filter((p) => !(BENCH_PARTS as readonly string[]).includes(p));
  if (unknown.length > 0 || parts.length === 0) throw new CliError(`--only takes ${BENCH_PARTS.join(', ')}; not "${unknown.join(', ') || values.only}"`);
  if (values.json !== undefined && values.json.trim() === '') throw new CliError('--json needs a file name');
  const quick = values.quick ?? false;
  return { parts: parts as BenchPart[], sizes: quick ? QUICK_SIZES : FULL_SIZES, quick, json: values.json };
}
