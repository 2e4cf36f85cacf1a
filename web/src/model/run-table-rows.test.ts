import { describe, expect, it } from 'vitest';
import { modeTrace, pipelineTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { runTablePageCount, runTableRows } from './run-table-rows.ts';
import { traceColumns } from './trace-columns.ts';

describe('the rows of a run’s data table', () => {
  it('one per command, 1-based, with the write and read that carried it, its times and latency', () => {
    const columns = traceColumns(sequentialTrace(3)); // writes at 10, 130, 250; replies 100 µs later
    expect(runTableRows(columns, 0, 100)).toEqual([
      { index: 0, number: 1, write: 1, sentUs: 10, read: 1, repliedUs: 110, latencyUs: 100, executedUs: null, error: false },
      { index: 1, number: 2, write: 2, sentUs: 130, read: 2, repliedUs: 230, latencyUs: 100, executedUs: null, error: false },
      { index: 2, number: 3, write: 3, sentUs: 250, read: 3, repliedUs: 350, latencyUs: 100, executedUs: null, error: false },
    ]);
  });

  it('a pipeline: every command in write 1, replies across reads of 4', () => {
    const rows = runTableRows(traceColumns(pipelineTrace(10, 10, 4)), 0, 10);
    expect(rows.map((r) => r.write)).toEqual(Array(10).fill(1));
    expect(rows.map((r) => r.read)).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3]);
  });

  it('pages: from and count, clipped to the run; at least one page', () => {
    const columns = traceColumns(pipelineTrace(250));
    expect(runTablePageCount(columns, 100)).toBe(3);
    expect(runTableRows(columns, 200, 100).map((r) => r.number)).toEqual(Array.from({ length: 50 }, (_, i) => 201 + i));
    expect(runTableRows(columns, 300, 100)).toEqual([]);
    expect(runTablePageCount(traceColumns(pipelineTrace(100)), 100)).toBe(1);
  });

  it('when Redis executed each command (MONITOR), and "never" for those it did not run', () => {
    expect(runTableRows(traceColumns(serverTracedPipeline(3)), 0, 3).map((r) => r.executedUs)).toEqual([300, 301, 302]);
    const aborted = traceColumns(modeTrace('multi', 3, { errorAt: 1, errorKind: 'queueing', monitor: true }));
    const rows = runTableRows(aborted, 0, 5);
    expect(rows.map((r) => r.executedUs)).toEqual([200, 'never', 'never', 'never', expect.any(Number)]);
    expect(rows.map((r) => r.error)).toEqual([false, false, true, false, true]);
  });
});
