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

  it('CSV: a reply that starts a formula is written inert, as spreadsheets expect; numbers stay numbers', () => {
    const doc = sequentialTrace(4);
    const replies = ['=HYPERLINK("https://evil.example","click")', "+1+cmd|' /C calc'!A0", '@SUM(A1)', -5];
    const hostile = { ...doc, commands: doc.commands.map((c, i) => ({ ...c, reply: replies[i]! })) };
    const columns = traceColumns(hostile);
    const lines = runTableCsv(columns, runTableRows(columns, 0, 4)).split('\r\n');
    expect(lines[1]).toMatch(/,"'=HYPERLINK\(""https:\/\/evil\.example"",""click""\)"$/);
    expect(lines[2]).toMatch(/,'\+1\+cmd\|' \/C calc'!A0$/);
    expect(lines[3]).toMatch(/,'@SUM\(A1\)$/);
    expect(lines[4]).toMatch(/,-5$/);
  });
});
