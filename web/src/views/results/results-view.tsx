// The runs on screen, side by side: the verdict line, the toolbar (time scale, zoom reset, legend,
// the Export menu: export-menu-view.tsx) and one panel per run — a run being its repeats (model/run-groups.ts), the median one shown
// unless another is picked — then the compare table, the wire view and the per-command bar chart of the
// repeats shown. The diagrams come right after the verdict line, so they start on the first screen.
// Holds the repeat picked per run and the wire selection (which run the wire view shows, which event is
// picked) shared by diagrams and wire view. Above the panels, the playback bar; here the playback clock
// learns the timeline of the runs shown (its end, its stops, a default speed) and the page's media keys
// are listened to (use-playback-keys.ts).
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { latencyHistogram } from '../../../../trace/derive/latency-stats.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { comparisonHeadlines } from '../../format/comparison-headline.ts';
import { ZOOM_STEP } from '../../interaction/diagram-keys.ts';
import type { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { zoomModifier } from '../../interaction/wheel-intent.ts';
import { defaultSpeedFor, type PlaybackClock } from '../../interaction/playback-clock.ts';
import { mergedEventTimes, milestones } from '../../model/playback-events.ts';
import { KeyboardHelpView } from './keyboard-help-view.tsx';
import { PlaybackBarView, type BarMilestone } from '../playback/playback-bar-view.tsx';
import { usePlaybackKeys, useReducedMotion } from '../playback/use-playback-keys.ts';
import { histogramDomain } from '../../layout/latency-histogram-layout.ts';
import { growingDomainEndUs } from '../../layout/time-scale-layout.ts';
import { runGroups, shownRepeat } from '../../model/run-groups.ts';
import { sharedMemoryTops } from '../../model/memory-series.ts';
import { traceColumns } from '../../model/trace-columns.ts';
import type { WireRef } from '../../model/wire-rows.ts';
import type { ScaleChoice } from '../../state/page-choices.ts';
import type { DisplayLinkSync } from '../../url/display-link-sync.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { picksLinkFields, picksOfLink, wireRunOfLink } from '../../url/run-picks-link.ts';
import { DEFAULT_DISPLAY_LINK } from '../../url/display-link.ts';
import { downloadTraces } from '../../state/trace-files.ts';
import { STORED_LINK_LIFETIME } from '../../../../trace/protocol/stored-runs.ts';
import { useNavigation } from '../app/use-navigation.ts';
import { RESULTS_ID } from '../app/skip-link-view.tsx';
import { CompareTableView } from './compare-table-view.tsx';
import { ExportMenuView } from './export-menu-view.tsx';
import { PerCommandChartView } from './per-command-chart-view.tsx';
import { RunPanelView } from '../run/run-panel-view.tsx';
import { WireView } from './wire-view.tsx';
import './results-view.css';
import { clusterVariantLabels } from '../../format/cluster-variant-label.ts';

/** The tag beside the legend for runs not measured just now. */
/** The key that makes the wheel zoom, as this platform names it. */
const ZOOM_KEY = zoomModifier(typeof navigator === 'undefined' ? '' : navigator.platform);

const SOURCE_TAGS: Readonly<Record<string, string>> = { file: 'opened from file', url: 'loaded from URL', history: 'from history', recorded: 'recorded', stored: 'stored run, from a link' };
/** The tag's title, where it says more. */
const SOURCE_TITLES: Readonly<Record<string, string>> = { stored: STORED_LINK_LIFETIME };

interface WireSelection {
  runId: string;
  ref: WireRef;
  /** A click on a diagram mark scrolls the wire list; a pick in the list pans the diagram. */
  from: 'diagram' | 'wire';
}

interface Props {
  traces: readonly TraceDocument[];
  source: string | null;
  scale: ScaleChoice;
  onScaleChange: (scale: ScaleChoice) => void;
  zoomSync: TimeZoomSync;
  /** The playhead shared by the diagrams. */
  playback: PlaybackClock;
  onExport: (doc: TraceDocument) => void;
  /** The page's URL: the repeats picked and the wire view's run (repeat=, wire=), and whether it names a speed. */
  url?: PageUrl;
  /** The URL's display keys (zoom=, t=): told the shared timeline, so a linked zoom window can apply. */
  displayLink?: DisplayLinkSync;
}

/** The bottom of a diagram's unzoomed plot: the run's end, or for a run still streaming a step past it (it grows). */
function diagramEndUs(doc: TraceDocument): number {
  const endUs = traceColumns(doc).endUs;
  return doc.incomplete?.reason === 'in-progress' ? growingDomainEndUs(endUs) : endUs;
}

/** Memoised: typing in the run form re-renders the app, and must not redo the panels of a 100,000-command trace. */
export const ResultsView = memo(function ResultsView({ traces, source, scale, onScaleChange, zoomSync, playback, onExport, url, displayLink }: Props) {
  const groups = useMemo(() => runGroups(traces), [traces]);
  const linked = () => url?.link.display ?? DEFAULT_DISPLAY_LINK;
  // The repeat the user picked per run (group key → run id); unpicked runs show their median repeat. A link's repeat= picks first.
  const [picked, setPicked] = useState<Readonly<Record<string, string>>>(() => picksOfLink(linked(), groups));
  const shownKey = groups.map((g) => shownRepeat(g, picked[g.key]).run.id).join(' ');
  // Keyed by the run ids shown, so a re-render that shows the same repeats keeps the same array.
  const shown = useMemo(() => groups.map((g) => shownRepeat(g, picked[g.key])), [groups, shownKey]);
  const sharedEndUs = useMemo(() => Math.max(1, ...shown.map(diagramEndUs)), [shown]);
  // Runs cut short or still measuring are not compared in headlines or per-command figures: they are partial.
  const whole = useMemo(() => shown.filter((d) => d.incomplete === null), [shown]);
  // The phase bars always share one scale, so their lengths compare.
  const phaseEndUs = Math.max(1, ...shown.map((d) => d.totals.doneUs));
  // So do the latency histograms: one bucket range over the runs shown.
  const latencyDomain = useMemo(() => histogramDomain(whole.map(latencyHistogram)), [whole]);
  // Runs of one mode in two cluster variants (a compared request): each panel says its variant.
  const variants = useMemo(() => clusterVariantLabels(groups.map((g) => g.median)), [groups]);
  const headlines = useMemo(() => comparisonHeadlines(groups.filter((g) => g.median.incomplete === null)), [groups]);
  // Playback runs over the shared time axis (µs since each run's t0) whatever the scale shown.
  const barMilestones = useMemo<BarMilestone[]>(
    () => shown.flatMap((d) => milestones(traceColumns(d)).map((m) => ({ ...m, run: shown.length > 1 ? d.run.mode : null }))).sort((a, b) => a.atUs - b.atUs),
    [shown],
  );
  useEffect(() => {
    playback.setEnd(sharedEndUs);
    playback.setStops(mergedEventTimes(shown.map(traceColumns)));
    if (linked().speed === null) playback.suggestSpeed(defaultSpeedFor(sharedEndUs));
  }, [playback, shown, sharedEndUs]);
  const [helpOpen, setHelpOpen] = useState(false);
  const resultsRef = useRef<HTMLElement>(null);
  usePlaybackKeys(playback, { onHelp: () => setHelpOpen(true), fullscreenTarget: () => resultsRef.current });
  useReducedMotion(playback);
  const shared = scale === 'shared';
  // Compared runs' memory plots share one byte scale each (the highest peak among them), as their diagrams share time.
  const memoryTops = useMemo(() => (shared && shown.length > 1 ? sharedMemoryTops(shown) : undefined), [shared, shown]);
  const [wireRunId, setWireRunId] = useState<string | null>(() => wireRunOfLink(linked(), shown));
  const [selection, setSelection] = useState<WireSelection | null>(null);
  // Falls back to the first run when the runs on screen change.
  const wireRun = shown.find((d) => d.run.id === wireRunId) ?? shown[0]!;
  const onWireClick = useCallback((doc: TraceDocument, ref: WireRef) => {
    setWireRunId(doc.run.id);
    setSelection({ runId: doc.run.id, ref, from: 'diagram' });
  }, []);
  const selectedIn = (doc: TraceDocument) => (selection?.runId === doc.run.id ? selection.ref : null);
  const sectionRef = resultsRef;
  useUrlDisplayState({ displayLink, playback, sharedEndUs, sectionRef });
  // repeat= and wire= follow the picks; a URL edited by hand picks again.
  useEffect(() => url?.update({ display: picksLinkFields(groups, shown, wireRun.run.id) }), [url, groups, shown, wireRun]);
  useNavigation(url, ({ display }) => {
    const picks = picksOfLink(display, groups);
    setPicked(picks);
    setWireRunId(wireRunOfLink(display, groups.map((g) => shownRepeat(g, picks[g.key]))));
  });
  return (
    // id=results and tabIndex -1: the page's "Skip to results" link (app/skip-link-view.tsx) moves the focus here.
    <section className="results" id={RESULTS_ID} tabIndex={-1} aria-label="Results" ref={resultsRef}>
      {headlines.map((h) => (
        <p key={h.kind + h.text} className={`headline headline-${h.kind}`} data-testid={`headline-${h.kind}`}>
          {h.text}
        </p>
      ))}
      {/* The Redis keys make the legend long: below 1600 px the hint gives way, so the toolbar keeps to one row. */}
      <div className={`toolbar${traces.some((d) => d.serverTrace !== null) ? ' toolbar-long-legend' : ''}`}>
        <button
          type="button"
          className="segmented"
          data-testid="scale-toggle"
          role="switch"
          aria-checked={shared}
          aria-label="Shared time scale"
          onClick={() => onScaleChange(shared ? 'own' : 'shared')}
          title="Shared: every run on the same µs axis. Own: each run fills its diagram."
        >
          <span className={shared ? 'on' : ''}>Shared time scale</span>
          <span className={shared ? '' : 'on'}>Each run’s own scale</span>
        </button>
        <span className="zoom-buttons" role="group" aria-label="Zoom the diagrams">
          <button type="button" className="button zoom-step" data-testid="zoom-out" onClick={() => zoomSync.zoomBy(1 / ZOOM_STEP)} aria-label="Zoom out" title="Zoom out (key [ on a focused diagram)">
            −
          </button>
          <button type="button" className="button zoom-step" data-testid="zoom-in" onClick={() => zoomSync.zoomBy(ZOOM_STEP)} aria-label="Zoom in" title="Zoom in (key ] on a focused diagram)">
            +
          </button>
          <button type="button" className="button" data-testid="zoom-reset" onClick={() => zoomSync.reset()} title={`${ZOOM_KEY} + wheel or pinch to zoom, drag or Shift + wheel to pan; keys ] [ 0 on a focused diagram`}>
            Reset zoom
          </button>
        </span>
        <span className="toolbar-hint" data-testid="toolbar-hint" title={`${ZOOM_KEY} + wheel or pinch: zoom · drag or Shift + wheel: pan · Tab to a diagram: ↑↓ marks, ] [ zoom, 0 reset`}>
          {ZOOM_KEY} + wheel: zoom · drag: pan · Tab: ↑↓ marks
        </span>
        <span className="legend" aria-label="Legend">
          <span className="key request">request →</span>
          <span className="key reply">← reply</span>
          {traces.some((d) => d.commands.some((c) => 'error' in c)) && (
            <span className="key error-reply" data-testid="legend-error" title="An error reply, marked where it arrived; hover it for Redis's error text">
              ✕ error reply
            </span>
          )}
          {traces.some((d) => (d.cluster?.redirects.length ?? 0) > 0) && (
            <span className="key redirect" data-testid="legend-redirect" title="A cluster node's MOVED, ASK or TRYAGAIN: an arc from the node that refused to the node the command went to next, with Redis's error text">
              ⤳ redirect
            </span>
          )}
          {traces.some((d) => d.serverTrace !== null) && (
            <>
              <span className="key execution" title="When Redis executed the command (MONITOR), ± the clock uncertainty band">
                ◆ executed
              </span>
              <span className="key syscall" title="Redis's read()/write() calls on the run's socket (strace)">
                ▯ syscall
              </span>
              <span className="key other" title="Commands other connections ran meanwhile (MONITOR)">
                ● other client
              </span>
            </>
          )}
          {source && source !== 'live' && <span className="source-tag" data-source={source} title={SOURCE_TITLES[source]}>{SOURCE_TAGS[source] ?? source}</span>}
        </span>
        <ExportMenuView traces={traces} docs={shown} onExportTraces={downloadTraces} sectionRef={resultsRef} />
      </div>
      <PlaybackBarView clock={playback} milestones={barMilestones} onHelp={() => setHelpOpen(true)} />
      {helpOpen && <KeyboardHelpView onClose={() => setHelpOpen(false)} />}
      {/* A chunked run's title ("… in pipelines of 10,000") may take two lines: every header then does, so side-by-side diagrams stay level. */}
      <div className={`panels panels-${Math.min(groups.length, 2)}${shown.some((d) => d.run.mode === 'chunked') ? ' panels-chunked' : ''}`}>
        {groups.map((group, i) => (
          <RunPanelView
            key={group.key}
            group={group}
            doc={shown[i]!}
            variant={variants[i]}
            onPickRepeat={(runId) => setPicked((p) => ({ ...p, [group.key]: runId }))}
            domainEndUs={shared ? sharedEndUs : diagramEndUs(shown[i]!)}
            phaseEndUs={phaseEndUs}
            latencyDomain={latencyDomain}
            memoryTops={memoryTops}
            zoomSync={zoomSync}
            onExport={onExport}
            selected={selectedIn(shown[i]!)}
            reveal={selection?.from === 'wire'}
            onWireClick={onWireClick}
            playback={playback}
          />
        ))}
      </div>
      {/* Under the panels, not above: the verdict line says the comparison, and the diagrams start on the first screen. */}
      <CompareTableView groups={groups} shown={shown} />
      <WireView
        key={wireRun.run.id}
        traces={shown}
        runId={wireRun.run.id}
        onRunChange={setWireRunId}
        selected={selectedIn(wireRun)}
        scrollToSelected={selection?.from === 'diagram'}
        onSelect={(ref) => setSelection({ runId: wireRun.run.id, ref, from: 'wire' })}
      />
      {whole.length > 0 && <PerCommandChartView traces={whole} />}
    </section>
  );
});

/**
 * The URL side of the shared display state: tells the URL sync the shared timeline (a linked zoom window
 * applies once it is known), gives the playback clock its end, and mirrors the playhead into
 * data-playhead-us on the results section (µs; absent = no playback) for tests, without re-rendering React.
 */
function useUrlDisplayState({ displayLink, playback, sharedEndUs, sectionRef }: {
  displayLink: DisplayLinkSync | undefined;
  playback: PlaybackClock;
  sharedEndUs: number;
  sectionRef: { readonly current: HTMLElement | null };
}): void {
  useEffect(() => {
    displayLink?.setDomain(sharedEndUs);
  }, [displayLink, sharedEndUs]);
  useEffect(() => () => displayLink?.setDomain(null), [displayLink]);
  useEffect(() => {
    const mirror = () => {
      const { positionUs } = playback.getSnapshot();
      const section = sectionRef.current;
      if (!section) return;
      if (positionUs === null) delete section.dataset['playheadUs'];
      else section.dataset['playheadUs'] = String(positionUs);
    };
    mirror();
    return playback.subscribe(mirror);
  }, [playback, sectionRef]);
}
