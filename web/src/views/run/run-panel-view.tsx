// One finished run and its repeats: its header (with the repeat shown, picked from the repeats; the median
// one by default), the shown repeat's verdict lines, sequence diagram and where its time went, how it was
// measured (warm or cold connection, the probes that recorded it), the plain-words lines computed from it (and,
// server-traced, the order Redis ran things in), its memory samples (when the run took them) and the
// summary over all repeats. A Diagram | Table switch shows the same run as a data table instead (run-table-view.tsx).
// A run the screen holds only part of (trace v4 `incomplete`: still measuring, or cut short) carries its
// mark and its rate over what was measured, and none of the verdicts, phases and summaries that need the
// whole run.
// data-mode / data-n / data-chunk / data-incomplete / data-memory-repeat are for tests; the diagram sets data-render and data-commands-drawn.
import { useMemo, useRef, useState } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { incompleteDetail, incompleteMark, incompleteUntil, measuredOverText } from '../../format/incomplete-text.ts';
import { formatRate, formatUs } from '../../format/number-format.ts';
import { warmupNote, warmupText } from '../../format/connection-text.ts';
import { memoryRepeatText, probeCostText, probesText } from '../../format/probes-text.ts';
import { firstRoundTripText } from '../../format/first-round-trip-text.ts';
import { delayText } from '../../format/delay-text.ts';
import { serverOrderText } from '../../format/server-order.ts';
import { runExplanation } from '../../format/run-explanation.ts';
import { rttEstimateText } from '../../format/rtt-estimate.ts';
import { withVariant } from '../../format/cluster-variant-label.ts';
import { runBadge, runTitle } from '../../format/run-label.ts';
import type { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import type { PlaybackClock } from '../../interaction/playback-clock.ts';
import { traceColumns } from '../../model/trace-columns.ts';
import type { HistogramDomain } from '../../layout/latency-histogram-layout.ts';
import type { RunGroup } from '../../model/run-groups.ts';
import type { WireRef } from '../../model/wire-rows.ts';
import { ClusterNodesView } from './cluster-nodes-view.tsx';
import { MemoryChartView } from './memory-chart-view.tsx';
import type { MemoryPlotId } from '../../model/memory-series.ts';
import { NeighborView } from './neighbor-view.tsx';
import { PhaseBarView } from './phase-bar-view.tsx';
import { RepeatPickerView } from './repeat-picker-view.tsx';
import { RunSummaryView } from './run-summary-view.tsx';
import { RunTableView } from './run-table-view.tsx';
import { RunViewTabs, type RunViewChoice } from './run-view-tabs-view.tsx';
import { ErrorRepliesView, KeysAfterView, RunVerdictView } from './run-verdict-view.tsx';
import { SequenceDiagramView } from './sequence-diagram-view.tsx';
import './incomplete-mark.css';
import './run-panel-view.css';

interface Props {
  group: RunGroup;
  /** Its cluster variant where the runs on screen differ in it ("one hash tag"), shown after its title. */
  variant?: string | undefined;
  /** The repeat shown: the median one unless the user picked another. */
  doc: TraceDocument;
  onPickRepeat: (runId: string) => void;
  domainEndUs: number;
  /** µs at the phase bar's full length: the longest t0 → call returned among the runs shown. */
  phaseEndUs: number;
  /** The latency histograms' bucket range, shared by the runs shown. */
  latencyDomain: HistogramDomain;
  /** Runs compared on a shared scale: each memory plot's byte scale tops at the highest peak among them. */
  memoryTops?: Readonly<Record<MemoryPlotId, number>>;
  zoomSync: TimeZoomSync;
  onExport: (doc: TraceDocument) => void;
  /** The wire event selected in this run, and whether the diagram should pan to it. */
  selected?: WireRef | null;
  reveal?: boolean;
  onWireClick?: (doc: TraceDocument, ref: WireRef) => void;
  /** The playhead shared by the diagrams on screen. */
  playback?: PlaybackClock | null;
}

export function RunPanelView({ group, doc, variant, onPickRepeat, domainEndUs, phaseEndUs, latencyDomain, memoryTops, zoomSync, onExport, selected = null, reveal = false, onWireClick, playback = null }: Props) {
  const panelRef = useRef<HTMLElement>(null);
  const { run } = doc;
  const title = withVariant(runTitle(run), variant);
  const columns = traceColumns(doc);
  const order = useMemo(() => serverOrderText(columns), [columns]);
  const partial = doc.incomplete !== null;
  const explanation = useMemo(() => (partial ? '' : runExplanation(columns)), [columns, partial]);
  const costs = probeCostText(doc);
  const memoryRepeat = memoryRepeatText(doc);
  const firstTrip = useMemo(() => firstRoundTripText(doc), [doc]);
  const delay = delayText(doc.rtt);
  const [shownAs, setShownAs] = useState<RunViewChoice>('diagram');
  const tabIds = `run-view-${run.id}`;
  return (
    <article
      className={`run-panel mode-${run.mode}${partial ? ` incomplete incomplete-${doc.incomplete!.reason}` : ''}`}
      data-incomplete={doc.incomplete?.reason}
      data-testid="run-panel"
      data-mode={run.mode}
      data-n={run.n}
      data-chunk={run.chunk}
      data-repeats={group.repeats.length}
      data-repeat={run.repeat}
      data-memory-repeat={run.memoryRepeat ? 'true' : undefined}
      ref={panelRef}
    >
      <header className="run-panel-head">
        <span className={`mode-badge ${run.observed ? 'observed' : run.mode}`}>{runBadge(run)}</span>
        <h2>{title}</h2>
        <RepeatPickerView group={group} shownRunId={run.id} onPick={onPickRepeat} />
        <span className="run-total" data-testid="run-total" title={partial ? `Time measured ${incompleteUntil(doc)} (t0 → the last reply that arrived), at the client socket` : 'Total time of the run shown (t0 → last reply), measured at the client socket'}>
          {formatUs(doc.totals.durationUs)}
          {partial ? ` ${incompleteUntil(doc)}` : ''}
        </span>
        <RunViewTabs idPrefix={tabIds} shown={shownAs} onChange={setShownAs} />
        <button type="button" className="link-button" onClick={() => onExport(doc)} title="Download the run shown as a trace file">
          Save
        </button>
      </header>
      {partial && <IncompleteMarkView doc={doc} />}
      {(!partial || run.observed) && <RunVerdictView doc={doc} />}
      {/* The diagram stays mounted behind the table: its zoom and keyboard cursor are there on the way back. */}
      <div role="tabpanel" id={`${tabIds}-diagram`} aria-labelledby={`${tabIds}-diagram-tab`} hidden={shownAs !== 'diagram'}>
        <SequenceDiagramView
          doc={doc}
          domainEndUs={domainEndUs}
          zoomSync={zoomSync}
          panelRef={panelRef}
          label={`Sequence diagram of the ${run.mode} run, ${title}`}
          selected={selected}
          reveal={reveal}
          onWireClick={onWireClick ? (ref) => onWireClick(doc, ref) : undefined}
          playback={playback}
        />
      </div>
      {shownAs === 'table' && (
        <div role="tabpanel" id={`${tabIds}-table`} aria-labelledby={`${tabIds}-table-tab`}>
          <RunTableView doc={doc} label={`the ${run.mode} run, ${title}`} />
        </div>
      )}
      <ClusterNodesView doc={doc} />
      {!partial && <PhaseBarView doc={doc} scaleEndUs={phaseEndUs} />}
      {/* How it was measured, under the picture rather than above it: the diagram starts on the first screen. */}
      <p className="run-facts">
        {run.observed ? (
          <span data-testid="warmup" title="The observing proxy timed every chunk where it passed: when it arrived from the client, reached Redis, came back, and was handed to the client">
            your client, observed: times at the proxy, from the connection’s first byte
          </span>
        ) : (
          <span data-testid="warmup" title={warmupNote(run)}>
            {warmupText(run)}
          </span>
        )}
        <span className="probes" data-testid="probes" title="What recorded this run">
          {probesText(doc)}
        </span>
        {costs && (
          <span className="probe-costs" data-testid="probe-costs" title="What the probes cost this run, as it measured them (npm run bench measures each side by side)">
            {costs}
          </span>
        )}
        {memoryRepeat && (
          <span className="memory-repeat" data-testid="memory-repeat">
            {memoryRepeat}
          </span>
        )}
      </p>
      <ErrorRepliesView doc={doc} />
      <KeysAfterView doc={doc} />
      {!partial && <p className="explanation">{explanation}</p>}
      {firstTrip && (
        <p className="explanation first-round-trip" data-testid="first-round-trip">
          {firstTrip}
        </p>
      )}
      {!partial && order && (
        <p className="explanation server-order" data-testid="server-order">
          {order}
        </p>
      )}
      {!partial && (<p className="rtt-annotation" data-testid="rtt-annotation" title="The run's measured parts (client socket; Redis INFO commandstats), and round trips × the RTT measured by PING before t0 plus Redis's service time">
        {delay ? (
          <span className="delay-tag" data-testid="delay-tag">
            {delay}
          </span>
        ) : null}
        {/* An observed connection has no PING RTT of its own and no INFO counts: no estimate to give. */}
        {!run.observed && rttEstimateText(doc)}
      </p>)}
      <MemoryChartView doc={doc} domainEndUs={domainEndUs} zoomSync={zoomSync} sharedTops={memoryTops} />
      <NeighborView doc={doc} />
      {!partial && <RunSummaryView group={group} shown={doc} latencyDomain={latencyDomain} />}
      <p className="run-id">
        run {run.id} · started {new Date(run.startedAt).toLocaleString()}
      </p>
    </article>
  );
}

/** The mark of a run held only in part: how far it got and why, its rate over what was measured, what was not measured. */
function IncompleteMarkView({ doc }: { doc: TraceDocument }) {
  return (
    <div className="incomplete-mark" data-testid="incomplete-mark" data-reason={doc.incomplete?.reason} role="status">
      <strong>{incompleteMark(doc)}</strong>
      <span data-testid="incomplete-rate">
        {formatRate(doc.totals.opsPerSec)} {measuredOverText(doc)}
      </span>
      <span className="incomplete-detail">{incompleteDetail(doc)}</span>
    </div>
  );
}
