import { describe, expect, it } from 'vitest';
import { runGroups } from '../model/run-groups.ts';
import { repeatsOf } from '../test-support/repeat-fixtures.ts';
import { modeTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { compareRows, sameWorkload } from './compare-rows.ts';

describe('compareRows', () => {
  it('puts four modes of one workload side by side, each figure from its trace; one run each names no fastest', () => {
    const docs = [sequentialTrace(10), modeTrace('pipeline', 10), modeTrace('multi', 10), modeTrace('eval', 10)];
    const groups = runGroups(docs);
    const rows = compareRows(groups, groups.map((g) => g.median));
    expect(rows.map((r) => r.mode)).toEqual(['Sequential', 'One pipeline', 'One MULTI/EXEC transaction', 'One EVAL script']);
    expect(rows.map((r) => r.title)).toEqual(['10 × INCR', '10 × INCR', '10 × INCR', '10 × INCR']);
    expect(rows.map((r) => r.roundTrips)).toEqual([10, 1, 1, 1]);
    expect(rows.map((r) => r.clientWrites)).toEqual([10, 1, 1, 1]);
    expect(rows[0]!.redisReads).toBe(10);
    expect(rows[0]!.tcpSegmentsOut).toBeNull();
    // One run each is one pair: no 95 % interval, so no row is called the fastest.
    expect(rows.filter((r) => r.fastest)).toHaveLength(0);
    expect(rows.map((r) => r.versusFastest)).toEqual(['too few pairs (1)', null, 'too few pairs (1)', 'too few pairs (1)']);
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

  it('sets each row against the fastest by the paired interval, and marks the fastest only when every interval excludes 1', () => {
    const seq = repeatsOf(sequentialTrace(10), [1190, 1100, 1420, 1250, 1150, 1200]);
    const pipe = repeatsOf(pipelineTrace(10), [120, 95, 160, 130, 110, 100]);
    const multi = repeatsOf(modeTrace('multi', 10), [125, 90, 150, 140, 100, 105]);
    const groups = runGroups([...seq, ...pipe, ...multi]);
    const rows = compareRows(groups, groups.map((g) => g.median));
    expect(rows.map((r) => r.fastest)).toEqual([false, false, false]); // pipeline vs multi: within noise
    expect(rows[0]!.versusFastest).toMatch(/^\d+(\.\d)?× slower \[95 % [\d.]+–[\d.]+×\], 6 of 6 pairs$/);
    expect(rows[1]!.versusFastest).toBeNull();
    expect(rows[2]!.versusFastest).toMatch(/^within noise \[95 % 0\.\d+–1\.\d+×\]$/);
    const two = runGroups([...seq, ...pipe]);
    expect(compareRows(two, two.map((g) => g.median)).map((r) => r.fastest)).toEqual([false, true]);
  });

  it('says when the runs did different work', () => {
    expect(sameWorkload([pipelineTrace(10), pipelineTrace(20)])).toBe(false);
  });
});
