// The wire view: for one run on screen, every client socket write and read and every read()/write()
// Redis made on the run's socket (strace), in time order, with the bytes themselves where the run
// recorded them. Renders the first rows only and grows on request, so a huge run never freezes the page.
// Selecting a row rings its mark in the diagram; a click on a mark selects (and scrolls to) its row.
import { useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { formatBytes, formatCount, formatUs, plural } from '../../format/number-format.ts';
import { probesOf } from '../../format/probes-text.ts';
import { runModeLabel, workloadTitle } from '../../format/run-label.ts';
import { carriedText } from '../../format/wire-text.ts';
import { wireDiffers, wireName } from '../../format/command-text.ts';
import { traceColumns } from '../../model/trace-columns.ts';
import { wireHeadsRecorded, wireKey, wirePosition, wireRowCount, wireRows, type WireKind, type WireRef, type WireRow } from '../../model/wire-rows.ts';
import './wire-view.css';

/** Rows rendered at first and added per "show more". */
export const WIRE_PAGE_ROWS = 500;

const KIND_TEXT: Record<WireKind, { who: string; arrow: string; direction: 'request' | 'reply' }> = {
  'client-write': { who: 'client write', arrow: '→', direction: 'request' },
  'server-read': { who: 'Redis read()', arrow: '→', direction: 'request' },
  'server-write': { who: 'Redis write()', arrow: '←', direction: 'reply' },
  'client-read': { who: 'client read', arrow: '←', direction: 'reply' },
};

interface Props {
  traces: readonly TraceDocument[];
  runId: string;
  onRunChange: (runId: string) => void;
  /** The selected event of this run, and whether the list should scroll to it (a click on the diagram). */
  selected: WireRef | null;
  scrollToSelected: boolean;
  onSelect: (ref: WireRef) => void;
}

export function WireView({ traces, runId, onRunChange, selected, scrollToSelected, onSelect }: Props) {
  const doc = traces.find((d) => d.run.id === runId) ?? traces[0]!;
  const columns = traceColumns(doc);
  const total = wireRowCount(columns);
  const [limit, setLimit] = useState(WIRE_PAGE_ROWS);
  const position = selected ? wirePosition(columns, selected) : null;
  // A selected event beyond the rows shown brings the rows up to its page.
  const shown = Math.min(total, Math.max(limit, position === null ? 0 : Math.ceil((position + 1) / WIRE_PAGE_ROWS) * WIRE_PAGE_ROWS));
  const rows = useMemo(() => wireRows(columns, shown), [columns, shown]);
  const listRef = useRef<HTMLOListElement>(null);
  const selectedKey = selected ? wireKey(selected) : null;
  const idPrefix = `wire-${doc.run.id}`;
  const nameAt = wireDiffers(doc.run) ? (index: number) => wireName(doc.run, index) : undefined;

  useLayoutEffect(() => {
    const list = listRef.current;
    if (!scrollToSelected || !list || selectedKey === null) return;
    const row = list.querySelector<HTMLElement>(`[data-key="${selectedKey}"]`);
    // Scroll the list only, never the page: the diagram that was clicked stays where it is.
    if (row) list.scrollTop = row.offsetTop - list.clientHeight / 2 + row.offsetHeight / 2;
  }, [selectedKey, scrollToSelected, rows]);

  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    event.preventDefault();
    const at = rows.findIndex((r) => r.key === selectedKey);
    const next = rows[at < 0 ? 0 : Math.max(0, Math.min(rows.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))];
    if (next) {
      onSelect({ source: next.source, event: next.event });
      const element = listRef.current?.querySelector<HTMLElement>(`[data-key="${next.key}"]`);
      element?.scrollIntoView({ block: 'nearest' });
    }
  };

  const heads = wireHeadsRecorded(columns);
  const strace = probesOf(doc).strace;
  return (
    <section className="wire-view" data-testid="wire-view" data-run={doc.run.id} aria-label="Wire view">
      <header className="wire-head">
        <h2>Wire view</h2>
        {traces.length > 1 && (
          <div className="segmented-buttons" role="radiogroup" aria-label="Run shown in the wire view">
            {traces.map((d) => (
              <button
                key={d.run.id}
                type="button"
                role="radio"
                aria-checked={d.run.id === doc.run.id}
                className={d.run.id === doc.run.id ? 'on' : ''}
                data-testid="wire-run"
                data-mode={d.run.mode}
                onClick={() => onRunChange(d.run.id)}
              >
                {runModeLabel(d.run)} · {workloadTitle(d.run)}
              </button>
            ))}
          </div>
        )}
        <span className="wire-count">{plural(total, 'event')} in time order</span>
      </header>
      <p className="wire-sources">
        {heads ? 'Client rows: the client socket’s write() calls and received chunks, first 64 bytes each. ' : (
          <span data-testid="wire-no-heads">
            This run did not record bytes (only server-traced and raw-socket runs do): sizes only.{' '}
          </span>
        )}
        {strace === 'on' && 'Redis rows: its read()/write() calls on the run’s socket, from strace; which commands each carried follows MONITOR’s execution order. '}
        {strace === 'unavailable' && 'strace was unavailable for this run: no Redis-side rows. '}
        {strace === 'off' && 'Redis-side rows need strace (Redis side, in the run form). '}
        Click a row to find it in the diagram, or a mark in the diagram to find its row.
      </p>
      <div className="wire-columns" aria-hidden="true">
        <span>time</span>
        <span>who</span>
        <span>bytes</span>
        <span>first bytes, escaped</span>
        <span>carried</span>
      </div>
      <ol
        className="wire-list"
        ref={listRef}
        role="listbox"
        tabIndex={0}
        aria-label={`Socket and syscall events of the ${doc.run.mode} run`}
        aria-activedescendant={selectedKey !== null && rows.some((r) => r.key === selectedKey) ? `${idPrefix}-${selectedKey}` : undefined}
        onKeyDown={onKeyDown}
      >
        {rows.map((row) => (
          <WireRowView key={row.key} row={row} id={`${idPrefix}-${row.key}`} selected={row.key === selectedKey} onSelect={onSelect} nameAt={nameAt} />
        ))}
      </ol>
      {shown < total && (
        <p className="wire-more">
          Showing the first {formatCount(shown)} of {formatCount(total)}.{' '}
          <button type="button" className="button" data-testid="wire-more" onClick={() => setLimit(shown + WIRE_PAGE_ROWS)}>
            Show {formatCount(Math.min(WIRE_PAGE_ROWS, total - shown))} more
          </button>
        </p>
      )}
    </section>
  );
}

interface RowProps {
  row: WireRow;
  id: string;
  selected: boolean;
  onSelect: (ref: WireRef) => void;
  /** Runs whose wire differs from their workload: the wire command at an index (MULTI, INCR, EXEC…). */
  nameAt: ((index: number) => string) | undefined;
}

function WireRowView({ row, id, selected, onSelect, nameAt }: RowProps) {
  const kind = KIND_TEXT[row.kind];
  const who = row.call ? `Redis ${row.call}()` : kind.who;
  return (
    <li
      id={id}
      role="option"
      aria-selected={selected}
      className={`wire-row ${row.kind} ${kind.direction}${selected ? ' selected' : ''}`}
      data-testid="wire-row"
      data-kind={row.kind}
      data-key={row.key}
      onClick={() => onSelect({ source: row.source, event: row.event })}
    >
      <span className="wire-time">{formatUs(row.atUs)}</span>
      <span className="wire-who">
        <span className="wire-arrow" aria-hidden="true">
          {kind.arrow}
        </span>{' '}
        {who}
      </span>
      <span className="wire-bytes">{row.bytes < 0 ? `${row.bytes} (error)` : formatBytes(row.bytes)}</span>
      <span className="wire-head-bytes">
        {row.head === null ? (
          <span className="wire-none">—</span>
        ) : (
          <>
            <code>{row.head}</code>
            {row.truncated && <span className="wire-cut">… ({formatCount(row.bytes)} bytes)</span>}
          </>
        )}
      </span>
      <span className="wire-carried">{carriedText(row.carried, nameAt) || '—'}</span>
    </li>
  );
}
