import { describe, expect, it } from 'vitest';
import { runGroups } from '../model/run-groups.ts';
import { modeTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { compareRows, sameWorkload } from './compare-rows.ts';

describe('compareRows', () => {
  it('puts four modes of one workload side by side, each figure from its trace, the fastest marked', () => {
    const docs = [sequentialTrace(10), modeTrace('pipeline', 10), modeTrace('multi', 10), modeTrace('eval', 10)];
    const groups = runGroups(docs);
    const rows = compareRows(groups, groups.map((g) => g.median));
    expect(rows.map((r) => r.mode)).toEqual(['Sequential', 'One pipeline', 'One MULTI/EXEC transaction', 'One EVAL script']);
    expect(rows.map((r) => r.title)).toEqual(['10 × INCR', '10 × INCR', '10 × INCR', '10 × INCR']);
    expect(rows.map((r) => r.roundTrips)).toEqual([10, 1, 1, 1]);
    expect(rows.map((r) => r.clientWrites)).toEqual([10, 1, 1, 1]);
    expect(rows[0]!.redisReads).toBe(10);
    expect(rows[0]!.tcpSegmentsOut).toBeNull();
    expect(rows.filter((r) => r.fastest)).toHaveLength(3); // the three single batches took 490 µs alike
    expect(rows[0]!.fastest).toBe(false);
    expect(rows[1]!.phases.reduce((s, p) => s + p.us, 0)).toBeCloseTo(rows[1]!.doneUs);
    expect(sameWorkload(docs)).toBe(true);
  });

  it('names each row’s client library when the runs were made by different ones, and only then', () => {
    const ioredis = modeTrace('pipeline', 10);
    const nodeRedis = { ...modeTrace('pipeline', 10), recorder: { ...ioredis.recorder, client: 'node-redis 5.9.0' } };
    const groups = runGroups([ioredis, nodeRedis]);
    expect(groups).toHaveLength(2);
    const rows = compareRows(groups, groups.map((g) => g.median));
    expect(rows.map((r) => r.client)).toEqual([ioredis.recorder.client, 'node-redis 5.9.0']);
    const same = runGroups([modeTrace('pipeline', 10), modeTrace('multi', 10)]);
    expect(compareRows(same, same.map((g) => g.median)).map((r) => r.client)).toEqual([null, null]);
  });

  it('says when the runs did different work', () => {
    expect(sameWorkload([pipelineTrace(10), pipelineTrace(20)])).toBe(false);
  });
});
