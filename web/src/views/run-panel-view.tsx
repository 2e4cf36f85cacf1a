// One finished run: its header (with the probes that recorded it), the sequence diagram, the plain-words
// lines computed from the trace (and, server-traced, the order Redis ran things in), the memory samples
// (when the run took them) and the summary.
// data-mode / data-n / data-chunk are for tests; the diagram sets data-render and data-commands-drawn.
import { useMemo, useRef } from 'react';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { formatUs } from '../format/number-format.ts';
import { probesText } from '../format/probes-text.ts';
import { serverOrderText } from '../format/server-order.ts';
import { runExplanation } from '../format/run-explanation.ts';
import { rttEstimateText } from '../format/rtt-estimate.ts';
import { modeBadge, runTitle } from '../format/run-label.ts';
import type { TimeZoomSync } from '../interaction/time-zoom-sync.ts';
import { traceColumns } from '../model/trace-columns.ts';
import type { WireRef } from '../model/wire-rows.ts';
import { MemoryChartView } from './memory-chart-view.tsx';
import { RunSummaryView } from './run-summary-view.tsx';
import { SequenceDiagramView } from './sequence-diagram-view.tsx';

interface Props {
  doc: TraceDocument;
  domainEndUs: number;
  zoomSync: TimeZoomSync;
  onExport: (doc: TraceDocument) => void;
  /** The wire event selected in this run, and whether the diagram should pan to it. */
  selected?: WireRef | null;
  reveal?: boolean;
  onWireClick?: (doc: TraceDocument, ref: WireRef) => void;
}

export function RunPanelView({ doc, domainEndUs, zoomSync, onExport, selected = null, reveal = false, onWireClick }: Props) {
  const panelRef = useRef<HTMLElement>(null);
  const { run } = doc;
  const title = runTitle(run);
  const columns = traceColumns(doc);
  const order = useMemo(() => serverOrderText(columns), [columns]);
  const explanation = useMemo(() => runExplanation(columns), [columns]);
  return (
    <article className={`run-panel mode-${run.mode}`} data-testid="run-panel" data-mode={run.mode} data-n={run.n} data-chunk={run.chunk} ref={panelRef}>
      <header className="run-panel-head">
        <span className={`mode-badge ${run.mode}`}>{modeBadge(run.mode)}</span>
        <h2>{title}</h2>
        <span className="probes" data-testid="probes" title="What recorded this run">
          {probesText(doc)}
        </span>
        <span className="run-total" title="Total time, measured at the client socket">
          {formatUs(doc.totals.durationUs)}
        </span>
        <button type="button" className="link-button" onClick={() => onExport(doc)} title="Download this run as a trace file">
          Save
        </button>
      </header>
      <SequenceDiagramView
        doc={doc}
        domainEndUs={domainEndUs}
        zoomSync={zoomSync}
        panelRef={panelRef}
        label={`Sequence diagram of the ${run.mode} run, ${title}`}
        selected={selected}
        reveal={reveal}
        onWireClick={onWireClick ? (ref) => onWireClick(doc, ref) : undefined}
      />
      <p className="explanation">{explanation}</p>
      {order && (
        <p className="explanation server-order" data-testid="server-order">
          {order}
        </p>
      )}
      <p className="rtt-annotation" data-testid="rtt-annotation" title="Round trips × RTT measured by PING before t0, plus Redis's service time from INFO commandstats">
        {doc.rtt.addedMs > 0 || doc.rtt.jitterMs > 0 ? (
          <span className="delay-tag">
            added delay: {doc.rtt.addedMs} ms RTT{doc.rtt.jitterMs > 0 ? ` ± ${doc.rtt.jitterMs} ms` : ''} (proxy)
          </span>
        ) : null}
        {rttEstimateText(doc)}
      </p>
      <MemoryChartView doc={doc} domainEndUs={domainEndUs} zoomSync={zoomSync} />
      <RunSummaryView doc={doc} />
      <p className="run-id">
        run {run.id} · started {new Date(run.startedAt).toLocaleString()}
      </p>
    </article>
  );
}
