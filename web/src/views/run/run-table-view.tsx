// The data-table view of one run: every command on the wire as a row of a real <table> (caption, column
// heads with their units), for reading the numbers without the diagram — by screen reader, by eye, or
// pasted into a spreadsheet (Download CSV). A page of RUN_TABLE_PAGE_ROWS rows at a time, with First /
// Previous / Next / Last and a page number, so a 100,000-command run renders a hundred rows.
// Rows come from model/run-table-rows.ts, their words from format/run-table-text.ts.
import { useMemo, useState } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { formatCount } from '../../format/number-format.ts';
import { runTableCells, runTableColumns, runTableCsv } from '../../format/run-table-text.ts';
import { RUN_TABLE_PAGE_ROWS, runTablePageCount, runTableRows } from '../../model/run-table-rows.ts';
import { traceColumns } from '../../model/trace-columns.ts';
import { downloadCsv } from '../../state/trace-files.ts';
import './run-table-view.css';

interface Props {
  doc: TraceDocument;
  /** What the run is, for the caption: "the pipeline run, 10 × INCR". */
  label: string;
  pageRows?: number;
}

export function RunTableView({ doc, label, pageRows = RUN_TABLE_PAGE_ROWS }: Props) {
  const columns = traceColumns(doc);
  const pages = runTablePageCount(columns, pageRows);
  const [wanted, setPage] = useState(0);
  const page = Math.min(wanted, pages - 1);
  const heads = useMemo(() => runTableColumns(columns), [columns]);
  const rows = useMemo(() => runTableRows(columns, page * pageRows, pageRows), [columns, page, pageRows]);
  const first = page * pageRows;
  const last = first + rows.length;
  const [pageText, setPageText] = useState<string | null>(null);
  const go = (to: number) => {
    setPage(Math.max(0, Math.min(pages - 1, to)));
    setPageText(null);
  };
  const onPageSubmit = (event: { preventDefault(): void }) => {
    event.preventDefault();
    const number = Number(pageText);
    if (Number.isInteger(number)) go(number - 1);
    else setPageText(null);
  };
  const onCsv = () => downloadCsv(runTableCsv(columns, runTableRows(columns, 0, columns.n)), `pipescope-${doc.run.mode}-${doc.run.command.toLowerCase()}-${doc.run.n}-${doc.run.id}.csv`);
  return (
    <div className="run-table" data-testid="run-table">
      <div className="run-table-tools">
        <span className="run-table-count" data-testid="run-table-range" aria-live="polite">
          {columns.n === 0 ? 'No commands' : `Commands ${formatCount(first + 1)}–${formatCount(last)} of ${formatCount(columns.n)}`}
        </span>
        {pages > 1 && (
          <nav className="run-table-pages" aria-label="Pages of the table">
            <button type="button" className="button" data-testid="table-first" disabled={page === 0} onClick={() => go(0)}>
              First
            </button>
            <button type="button" className="button" data-testid="table-previous" disabled={page === 0} onClick={() => go(page - 1)}>
              Previous
            </button>
            <form className="run-table-page" onSubmit={onPageSubmit}>
              <label>
                Page{' '}
                <input
                  type="number"
                  data-testid="table-page"
                  min={1}
                  max={pages}
                  value={pageText ?? String(page + 1)}
                  onChange={(e) => setPageText(e.target.value)}
                  onBlur={onPageSubmit}
                />
              </label>{' '}
              of {formatCount(pages)}
            </form>
            <button type="button" className="button" data-testid="table-next" disabled={page === pages - 1} onClick={() => go(page + 1)}>
              Next
            </button>
            <button type="button" className="button" data-testid="table-last" disabled={page === pages - 1} onClick={() => go(pages - 1)}>
              Last
            </button>
          </nav>
        )}
        <button type="button" className="button" data-testid="table-csv" onClick={onCsv} title="Download every row of this table (all pages) as CSV">
          Download CSV
        </button>
      </div>
      <div className="run-table-scroll">
        <table>
          <caption>
            Commands of {label}, one row each in the order sent: times in µs since t0 at the client socket
            {columns.serverUs ? '; Redis’s execution from MONITOR, on the client’s clock' : ''}.
          </caption>
          <thead>
            <tr>
              {heads.map((h) => (
                <th key={h.key} scope="col" className={h.numeric ? 'numeric' : undefined}>
                  {h.head}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const cells = runTableCells(columns, row);
              return (
                <tr key={row.index} data-testid="run-table-row" className={row.error ? 'error' : undefined}>
                  {heads.map((h) =>
                    h.key === 'number' ? (
                      <th key={h.key} scope="row" className="numeric">
                        {cells.number}
                      </th>
                    ) : (
                      <td key={h.key} className={h.numeric ? 'numeric' : undefined} data-column={h.key}>
                        {cells[h.key]}
                      </td>
                    ),
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
