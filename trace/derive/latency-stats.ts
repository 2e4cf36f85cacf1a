// Per-command latency as redis-benchmark and memtier report it: avg, min, p50, p95, p99, max, and a
// histogram with fixed log-spaced buckets (10 per decade from 1 µs), so two runs' histograms can be
// laid over each other. A command's latency is from the write that carried it to the read that
// completed its reply (client socket), so a pipelined command's latency includes waiting its turn.
import type { TraceDocument } from '../format/trace-format.ts';
import { percentile } from './trace-stats.ts';

export const LATENCY_PERCENTILES = [50, 95, 99] as const;

export interface LatencyStats {
  count: number;
  avgUs: number;
  minUs: number;
  p50Us: number;
  p95Us: number;
  p99Us: number;
  maxUs: number;
}

/**
 * Fewest commands for which a nearest-rank percentile p is not simply the maximum or a single
 * sample: p99 needs 100, p95 needs 20, p50 needs 2. Below it, say "n too small" rather than print it.
 */
export function percentileNeeds(p: number): number {
  return Math.ceil(100 / (100 - p) - 1e-9); // 100 − 99.9 is not exactly 0.1 in floating point
}

export function latenciesUs(doc: TraceDocument): Float64Array {
  const { commands } = doc;
  const latencies = new Float64Array(commands.length);
  for (let i = 0; i < commands.length; i++) latencies[i] = commands[i]!.repliedUs - commands[i]!.sentUs;
  return latencies.sort();
}

export function latencyStats(doc: TraceDocument): LatencyStats {
  return statsOfSorted(latenciesUs(doc));
}

/** The same figures for any latencies (µs), sorted ascending (the neighbour's, neighbor-verdicts.ts). */
export function statsOfSorted(sorted: Float64Array): LatencyStats {
  const count = sorted.length;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i]!;
  return {
    count,
    avgUs: count ? sum / count : 0,
    minUs: count ? sorted[0]! : 0,
    p50Us: percentile(sorted, 50),
    p95Us: percentile(sorted, 95),
    p99Us: percentile(sorted, 99),
    maxUs: count ? sorted[count - 1]! : 0,
  };
}

/** Buckets per decade of the latency histogram. */
export const BUCKETS_PER_DECADE = 10;

export interface LatencyBucket {
  /** [fromUs, toUs): bucket k spans 10^(k/10) µs to 10^((k+1)/10) µs; bucket 0 also holds 0–1 µs. */
  index: number;
  fromUs: number;
  toUs: number;
  count: number;
}

export function bucketIndex(latencyUs: number): number {
  return latencyUs < 1 ? 0 : Math.floor(Math.log10(latencyUs) * BUCKETS_PER_DECADE + 1e-9);
}

export function bucketBounds(index: number): { fromUs: number; toUs: number } {
  return { fromUs: index === 0 ? 0 : 10 ** (index / BUCKETS_PER_DECADE), toUs: 10 ** ((index + 1) / BUCKETS_PER_DECADE) };
}

/** The run's latencies in the fixed buckets, from its lowest occupied bucket to its highest (gaps kept as 0). */
export function latencyHistogram(doc: TraceDocument): LatencyBucket[] {
  const sorted = latenciesUs(doc);
  if (sorted.length === 0) return [];
  const first = bucketIndex(sorted[0]!);
  const last = bucketIndex(sorted[sorted.length - 1]!);
  const counts = new Array<number>(last - first + 1).fill(0);
  for (let i = 0; i < sorted.length; i++) counts[bucketIndex(sorted[i]!) - first]!++;
  return counts.map((count, offset) => ({ index: first + offset, ...bucketBounds(first + offset), count }));
}
