import { describe, expect, it } from 'vitest';
import { runTableRows } from '../model/run-table-rows.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { modeTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { microseconds, runTableCells, runTableColumns, runTableCsv } from './run-table-text.ts';

describe('the words of a run’s data table', () => {
  it('column heads carry their units; "Redis executed at" only with MONITOR, with its uncertainty', () => {
    expect(runTableColumns(traceColumns(sequentialTrace(2))).map((c) => c.head)).toEqual([
      '#', 'command', 'write #', 'sent at (µs since t0)', 'read #', 'reply at (µs since t0)', 'latency (µs)', 'reply / outcome',
    ]);
    const traced = traceColumns(serverTracedPipeline(2));
    expect(runTableColumns(traced).find((c) => c.key === 'executed')?.head).toBe(`Redis executed at (µs since t0, ± ${traced.clockUncertaintyUs}, MONITOR)`);
  });

  it('cells: the wire command’s name, plain µs, the reply or the error’s text', () => {
    const columns = traceColumns(modeTrace('multi', 3, { errorAt: 1, errorKind: 'queueing', monitor: true }));
    const cells = runTableRows(columns, 0, 5).map((r) => runTableCells(columns, r));
    expect(cells.map((c) => c.command)).toEqual(['MULTI', 'INCR', 'INCR', 'INCR', 'EXEC']);
    expect(cells[0]).toMatchObject({ number: '1', write: '1', sent: '10', read: '1', replied: '500', latency: '490', executed: '200', reply: 'OK' });
    expect(cells[2]).toMatchObject({ executed: 'never (no MONITOR line)', reply: "error: ERR wrong number of arguments for 'incr' command" });
    expect(microseconds(12.34567)).toBe('12.346');
  });

  it('CSV: heads first, quoted where a cell needs it, CRLF lines', () => {
    const columns = traceColumns(modeTrace('pipeline', 2, { errorAt: 1 }));
    const csv = runTableCsv(columns, runTableRows(columns, 0, 2));
    expect(csv.split('\r\n')).toEqual([
      '#,command,write #,sent at (µs since t0),read #,reply at (µs since t0),latency (µs),reply / outcome',
      '1,INCR,1,10,1,500,490,1',
      '2,INCR,1,10,1,500,490,error: ERR value is not an integer or out of range',
      '',
    ]);
    const quoted = runTableCsv(traceColumns(modeTrace('multi', 2, { monitor: true })), []);
    expect(quoted).toMatch(/"Redis executed at \(µs since t0, ± \d+, MONITOR\)"/);
  });
});
