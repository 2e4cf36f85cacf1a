import { describe, expect, it } from 'vitest';
import { asRepeat, repeatsOf } from '../test-support/repeat-fixtures.ts';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { runGroups, shownRepeat } from './run-groups.ts';

const seq = sequentialTrace(10);
const pipe = pipelineTrace(10);

describe('runGroups', () => {
  it('groups a request’s interleaved repeats by mode, in first-seen order, each in repeat order', () => {
    const [s0, s1, s2] = repeatsOf(seq, [1300, 1100, 1200]);
    const [p0, p1, p2] = repeatsOf(pipe, [500, 700, 600]);
    const groups = runGroups([s0!, p0!, s2!, p1!, s1!, p2!]);
    expect(groups.map((g) => g.repeats.map((d) => d.run.id))).toEqual([
      ['test-sequential-10-r0', 'test-sequential-10-r1', 'test-sequential-10-r2'],
      ['test-pipeline-10-r0', 'test-pipeline-10-r1', 'test-pipeline-10-r2'],
    ]);
    // The median repeat by total time: 1,200 µs sequentially (repeat 2), 600 µs pipelined (repeat 2).
    expect(groups.map((g) => g.median.run.id)).toEqual(['test-sequential-10-r2', 'test-pipeline-10-r2']);
    expect(groups.map((g) => g.key)).toEqual(['sequential:test-sequential-10-r0', 'pipeline:test-pipeline-10-r0']);
  });

  it('keeps the key of a group as its repeats arrive, and takes the lower middle repeat for an even count', () => {
    const [s0, s1, s2, s3] = repeatsOf(seq, [400, 100, 300, 200]);
    expect(runGroups([s0!])[0]!.key).toBe(runGroups([s0!, s1!, s2!])[0]!.key);
    expect(runGroups([s0!, s1!, s2!, s3!])[0]!.median.run.repeat).toBe(3); // 200 µs: the lower of 200 and 300
  });

  it('keeps single traces apart as before: one group each, chunk sizes apart', () => {
    const groups = runGroups([seq, pipe, chunkedTrace(10, 5), chunkedTrace(10, 2)]);
    expect(groups.map((g) => g.repeats.length)).toEqual([1, 1, 1, 1]);
    expect(groups.map((g) => g.median)).toEqual([seq, pipe, chunkedTrace(10, 5), chunkedTrace(10, 2)]);
  });

  it('does not merge traces of other workloads or other measurements, nor two of the same repeat number', () => {
    const other = sequentialTrace(20);
    const cold = seq;
    const warm = { ...seq, run: { ...seq.run, id: 'warm', warmup: { commands: 10, durationUs: 900 } } };
    const traced = { ...seq, run: { ...seq.run, id: 'traced', probes: { ...seq.run.probes, monitor: true } } };
    const delayed = { ...seq, run: { ...seq.run, id: 'delayed' }, rtt: { ...seq.rtt, addedMs: 10 } };
    expect(runGroups([cold, other, warm, traced, delayed]).map((g) => g.repeats.length)).toEqual([1, 1, 1, 1, 1]);
    // Two files that were both repeat 0 of their requests: two runs, not two repeats.
    expect(runGroups([asRepeat(seq, 0), { ...asRepeat(seq, 0), run: { ...seq.run, id: 'again' } }])).toHaveLength(2);
  });
});

describe('shownRepeat', () => {
  it('shows the picked repeat, or the median one when none (or an unknown one) is picked', () => {
    const group = runGroups(repeatsOf(seq, [300, 100, 200]))[0]!;
    expect(shownRepeat(group, undefined).run.repeat).toBe(2);
    expect(shownRepeat(group, 'test-sequential-10-r0').run.repeat).toBe(0);
    expect(shownRepeat(group, 'gone').run.repeat).toBe(2);
  });
});
