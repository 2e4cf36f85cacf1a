import { describe, expect, it } from 'vitest';
import { REFERENCE_MIN_RUN_MS } from '../../trace/format/sweep-format.ts';
import { MAX_REFERENCE_COMMANDS, commandsToLastLongEnough, measureDepth, parseBenchmarkCsv, type BenchmarkResult } from './redis-benchmark.ts';

it('reads the rps and latency columns of redis-benchmark --csv', () => {
  const stdout = '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"PING","33898.30","0.028","0.008","0.015","0.079","0.095","0.351"\n';
  expect(parseBenchmarkCsv(stdout)).toEqual({ opsPerSec: 33898.3, latency: { avgMs: 0.028, minMs: 0.008, p50Ms: 0.015, p95Ms: 0.079, p99Ms: 0.095, maxMs: 0.351 } });
});

it('reads the rps of Redis 6\'s --csv (no header, no latencies), and no latencies from a header that lacks one', () => {
  expect(parseBenchmarkCsv('"PING_BULK","97087.38"\n')).toEqual({ opsPerSec: 97087.38, latency: null });
  expect(parseBenchmarkCsv('"test","rps","avg_latency_ms"\n"PING","1000.00","0.5"\n')).toEqual({ opsPerSec: 1000, latency: null });
  expect(parseBenchmarkCsv('"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"PING","1000.00","0.5","x","1","1","1","1"\n').latency).toBeNull();
});

it('says what redis-benchmark printed when there is no result', () => {
  expect(() => parseBenchmarkCsv('Could not connect to Redis at 127.0.0.1:1: Connection refused\n')).toThrow(
    'redis-benchmark printed no result: Could not connect to Redis at 127.0.0.1:1: Connection refused',
  );
});

it('reads "inf" (a run under one of its milliseconds) as Infinity, not as a failure', () => {
  const stdout = '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"PING","inf","0.037","0.024","0.039","0.055","0.055","0.055"\n';
  expect(parseBenchmarkCsv(stdout).opsPerSec).toBe(Infinity);
});

describe('commandsToLastLongEnough', () => {
  it('keeps a count that ran at least REFERENCE_MIN_RUN_MS', () => {
    expect(commandsToLastLongEnough(10_000, 10_000)).toBe(10_000); // 1 s
    expect(commandsToLastLongEnough(1000, 1000 / (REFERENCE_MIN_RUN_MS / 1000))).toBe(1000); // exactly the minimum
  });

  it('scales a short run to 1.5× the minimum', () => {
    // 2,000 commands at 1,000,000 ops/s took 2 ms: 150 ms needs 150,000.
    expect(commandsToLastLongEnough(2000, 1_000_000)).toBe(150_000);
  });

  it('grows tenfold from a run too short to read, and stops at the cap', () => {
    expect(commandsToLastLongEnough(1024, Infinity)).toBe(10_240);
    expect(commandsToLastLongEnough(MAX_REFERENCE_COMMANDS, Infinity)).toBe(MAX_REFERENCE_COMMANDS);
    expect(commandsToLastLongEnough(MAX_REFERENCE_COMMANDS / 2, 1e12)).toBe(MAX_REFERENCE_COMMANDS);
  });
});

describe('measureDepth', () => {
  /** A fake redis-benchmark at a fixed rate with a whole-millisecond clock, as the real one prints. */
  const benchmarkAt = (opsPerSec: number, calls: number[], latency: BenchmarkResult['latency'] = null) => async (commands: number): Promise<BenchmarkResult> => {
    calls.push(commands);
    const ms = Math.floor((commands / opsPerSec) * 1000);
    return { opsPerSec: ms === 0 ? Infinity : commands / (ms / 1000), latency };
  };

  it('runs perPoint when that is long enough: every run is a repeat', async () => {
    const calls: number[] = [];
    const repeats: number[] = [];
    expect(await measureDepth(10_000, 3, benchmarkAt(20_000, calls), (r) => repeats.push(r))).toEqual({ commands: 10_000, opsPerSec: [20_000, 20_000, 20_000] });
    expect(calls).toEqual([10_000, 10_000, 10_000]);
    expect(repeats).toEqual([1, 2, 3]);
  });

  it('calibrates a too-fast depth up to a readable count, then repeats with that count', async () => {
    const calls: number[] = [];
    const result = await measureDepth(1024, 2, benchmarkAt(2_000_000, calls));
    // 1,024 → "inf"; 10,240 → 5 ms; → 307,200 (153 ms), kept for both repeats.
    expect(calls).toEqual([1024, 10_240, 307_200, 307_200]);
    expect(result.commands).toBe(307_200);
    expect(result.opsPerSec).toHaveLength(2);
    // 153 ms read on a whole-millisecond clock: within 1 % of the true rate.
    for (const ops of result.opsPerSec) expect(Math.abs(ops / 2_000_000 - 1)).toBeLessThan(0.01);
    expect(result.latencies).toBeUndefined(); // it printed none
  });

  it('keeps the repeats\' latency columns, not the calibration runs\'', async () => {
    const latency = { avgMs: 0.5, minMs: 0.1, p50Ms: 0.4, p95Ms: 0.9, p99Ms: 1.2, maxMs: 3 };
    const result = await measureDepth(1024, 2, benchmarkAt(2_000_000, [], latency));
    expect(result.latencies).toEqual([latency, latency]);
  });
});
