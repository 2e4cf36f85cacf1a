// Sweep documents for unit tests, shaped like the measured sweep in docs/benchmarks.md (PING, ioredis, loopback):
// ops/s rising with depth and levelling off, Redis read events falling as 1/depth, redis-benchmark
// beside it. For unit tests only; nothing here is shown to users.
import { SWEEP_FORMAT, SWEEP_FORMAT_VERSION, type SweepDocument, type SweepRun } from '../../../trace/format/sweep-format.ts';

export function sweepRun(opsPerSec: number, perPoint: number, depth: number): SweepRun {
  const trips = Math.ceil(perPoint / depth);
  return {
    totals: { durationUs: (perPoint / opsPerSec) * 1e6, opsPerSec },
    counts: {
      client: { writes: trips, reads: trips, bytesOut: perPoint * 14, bytesIn: perPoint * 7, source: 'client-socket' },
      server: { reads: trips, writes: trips, execUs: perPoint, source: 'redis-info', exclusive: true },
    },
  };
}

/** depth → ops/s of each repeat. */
export const MEASURED: Record<number, number[]> = {
  1: [9_962, 15_294, 17_342],
  2: [17_301, 19_248, 19_541],
  4: [32_584, 33_827, 34_088],
  8: [61_301, 63_170, 65_401],
  16: [101_419, 112_198, 115_260],
  32: [152_267, 163_124, 168_138],
  64: [213_575, 215_485, 229_964],
};

export const REFERENCE: Record<number, number[]> = {
  1: [14_265, 14_100, 14_400],
  2: [28_011, 27_000, 28_500],
  4: [56_180, 55_000, 57_000],
  8: [114_943, 110_000, 116_000],
  16: [227_273, 220_000, 230_000],
  32: [476_952, 470_000, 480_000],
  64: [772_923, 760_000, 780_000],
};

/**
 * Six rounds per depth, as a sweep records them now (each depth once per round): clear gains up to depth 16,
 * then two depths whose runs overlap, the deeper one's median lower (a change that is only noise).
 */
export const MEASURED_ROUNDS: Record<number, number[]> = {
  1: [15_100, 14_800, 15_600, 16_000, 14_900, 15_300],
  4: [55_000, 52_000, 57_500, 58_000, 54_000, 56_000],
  16: [181_000, 175_000, 190_000, 185_000, 178_000, 183_000],
  32: [240_000, 205_000, 262_000, 199_000, 251_000, 230_000],
  64: [198_000, 231_000, 176_000, 244_000, 169_000, 210_000],
};

export function sweepDocument(depths: number[] = [1, 2, 4, 8, 16, 32, 64], perPoint = 10_000, withReference = true, measured: Record<number, number[]> = MEASURED): SweepDocument {
  return {
    format: SWEEP_FORMAT,
    version: SWEEP_FORMAT_VERSION,
    sweep: {
      id: 'sweep-test-1', startedAt: '2026-01-02T03:04:05.678Z', command: 'PING', valueBytes: 0, engine: 'ioredis',
      perPoint, repeats: measured[depths[0]!]?.length ?? 3, depths, rtt: { addedMs: 0, jitterMs: 0 }, serverTraced: false,
    },
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:6390' },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.19.0' },
    points: depths.map((depth) => ({ depth, runs: (measured[depth] ?? [1, 2, 3]).map((ops) => sweepRun(ops, perPoint, depth)) })),
    reference: withReference
      ? { tool: 'redis-benchmark', version: '7.0.15', args: ['-c', '1', '-n', String(perPoint), '-P', '<depth>', '--csv', 'PING'], points: depths.map((depth) => ({ depth, opsPerSec: REFERENCE[depth] ?? [1, 2, 3] })) }
      : null,
  };
}
