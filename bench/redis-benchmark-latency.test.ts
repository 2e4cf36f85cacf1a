import { expect, it } from 'vitest';
import { parseCsvLatency } from './redis-benchmark-latency.ts';

// As redis-benchmark 7.0.15 printed them here (`-c 1 -P 1 -n 20000 --csv -t ping`, then a custom PING).
const PING_TESTS = `"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"
"PING_INLINE","35906.64","0.023","0.016","0.023","0.031","0.063","4.095"
"PING_MBULK","34965.04","0.024","0.016","0.023","0.031","0.063","7.327"
`;

it('reads every test with its latencies in µs', () => {
  expect(parseCsvLatency(PING_TESTS)).toEqual([
    { test: 'PING_INLINE', rps: 35906.64, avgUs: 23, minUs: 16, p50Us: 23, p95Us: 31, p99Us: 63, maxUs: 4095 },
    { test: 'PING_MBULK', rps: 34965.04, avgUs: 24, minUs: 16, p50Us: 23, p95Us: 31, p99Us: 63, maxUs: 7327 },
  ]);
});

it('takes "inf" ops/s as a run too short for its clock, and finds columns by name', () => {
  const text = `"rps","test","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"inf","PING","0.036","0.016","0.031","0.039","0.111","6.855"\n`;
  expect(parseCsvLatency(text)).toEqual([{ test: 'PING', rps: Infinity, avgUs: 36, minUs: 16, p50Us: 31, p95Us: 39, p99Us: 111, maxUs: 6855 }]);
});

it('refuses output without latency columns or without results, saying what it got', () => {
  expect(() => parseCsvLatency('"test","rps"\n"PING_INLINE","35906.64"\n')).toThrow(/no avg_latency_ms column \(redis-benchmark 7 or later/);
  expect(() => parseCsvLatency(PING_TESTS.split('\n')[0]!)).toThrow(/printed no result/);
  expect(() => parseCsvLatency(PING_TESTS.replace('"0.024"', '""'))).toThrow(/no avg_latency_ms: "PING_MBULK"/);
  expect(() => parseCsvLatency('')).toThrow(/no test column/);
});
