import { describe, expect, it } from 'vitest';
import { chunkedTrace, pipelineTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { eventTimes, mergedEventTimes, milestones } from './playback-events.ts';
import { traceColumns } from './trace-columns.ts';

describe('eventTimes', () => {
  it('lists each write and each read of a sequential run, in time order', () => {
    // Writes at 10, 130, 250; reads 100 µs after each.
    expect([...eventTimes(traceColumns(sequentialTrace(3)))]).toEqual([10, 110, 130, 230, 250, 350]);
  });

  it('adds Redis executions (MONITOR) and keeps a time shared by several events once', () => {
    // One write at 10, executions at 300, 301, 302, one read at 503.
    expect([...eventTimes(traceColumns(serverTracedPipeline(3)))]).toEqual([10, 300, 301, 302, 503]);
    // Two writes 1 µs apart, two reads at 500 and 501.
    expect([...eventTimes(traceColumns(pipelineTrace(4, 2, 2)))]).toEqual([10, 11, 500, 501]);
  });

  it('merges the stops of several runs on one time axis', () => {
    const merged = mergedEventTimes([traceColumns(sequentialTrace(2)), traceColumns(pipelineTrace(2))]);
    expect([...merged]).toEqual([10, 110, 130, 230, 500]);
  });
});

describe('milestones', () => {
  it('marks the first write, the first and the last reply', () => {
    expect(milestones(traceColumns(sequentialTrace(3))).map((m) => [m.kind, m.atUs, m.label])).toEqual([
      ['first-write', 10, 'first write'],
      ['first-reply', 110, 'first reply'],
      ['last-reply', 350, 'last reply'],
    ]);
  });

  it('marks each chunk’s first write in a chunked run', () => {
    // 10 PINGs in pipelines of 4: writes at 10, 130, 250, reads 100 µs later.
    expect(milestones(traceColumns(chunkedTrace(10, 4))).map((m) => [m.kind, m.atUs, m.label])).toEqual([
      ['first-write', 10, 'first write'],
      ['first-reply', 110, 'first reply'],
      ['chunk', 130, 'chunk 2'],
      ['chunk', 250, 'chunk 3'],
      ['last-reply', 350, 'last reply'],
    ]);
  });

  it('gives one reply milestone when one read carried every reply', () => {
    expect(milestones(traceColumns(pipelineTrace(5))).map((m) => m.kind)).toEqual(['first-write', 'first-reply']);
  });
});
