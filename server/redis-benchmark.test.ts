import { expect, it } from 'vitest';
import { parseCsvRps } from './redis-benchmark.ts';

it('reads the rps column of redis-benchmark --csv', () => {
  const stdout = '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms"\n"PING","33898.30","0.028","0.008","0.015","0.079","0.095","0.351"\n';
  expect(parseCsvRps(stdout)).toBe(33898.3);
});

it('says what redis-benchmark printed when there is no result', () => {
  expect(() => parseCsvRps('Could not connect to Redis at 127.0.0.1:1: Connection refused\n')).toThrow(
    'redis-benchmark printed no result: Could not connect to Redis at 127.0.0.1:1: Connection refused',
  );
});
