// The page: a skip link to the results, header with connection status, banner, run form and progress,
// file controls, results. Its landmarks: the header (banner), the views' navigation, main, the run
// form (a form named "Run settings"), the results (a region named "Results") and the footer.
// Composes the features, each of which keeps its own state (the run form and scale, the view, presenter
// mode and the tour, the playhead and zoom) and its part of the URL through the page store, `url`
// (url/page-url.ts, made by main.tsx): the one reader and writer of the URL's hash. Reads the live
// channel's status and the run store; everything that moves per frame lives below, in the diagram controllers.
// `offline` (the static site, base/site-mode.ts, chosen by main.tsx) is the one switch for a page without a
// backend: no connection pill or banner, no run form, sweep form or Run buttons, no follow/share; the
// landing page lists the recorded runs instead (recorded-runs-view.tsx).
// The shared controls' and the page's rules before any view's own, which may refine them.
import './controls.css';
import './app-view.css';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import type { PageChannel, ChannelStatus } from '../../live/live-channel.ts';
import type { RunStore } from '../../live/run-store.ts';
import type { SweepStore } from '../../live/sweep-store.ts';
import { FollowShareStore } from '../../live/follow-share-store.ts';
import { pressRunTitle } from '../../format/run-label.ts';
import type { PageDisplay } from '../../state/follow-display.ts';
import type { HistoryStore } from '../../state/history-store.ts';
import type { ViewChoice } from '../../state/page-choices.ts';
import { formModes } from '../../state/run-form-state.ts';
import { showLoaded } from '../../state/show-loaded.ts';
import { downloadTrace, loadTraceFiles } from '../../state/trace-files.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { TourView } from '../tour/tour-view.tsx';
import { usePresentation } from '../tour/use-presentation.ts';
import { ResultsView } from '../results/results-view.tsx';
import { useDisplayLink } from '../results/use-display-link.ts';
import { RunControlsView } from '../run-form/run-controls-view.tsx';
import { useRunFormLink } from '../run-form/use-run-form-link.ts';
import { StatusBannerView } from './status-banner-view.tsx';
import { MAIN_ID, SkipLinkView } from './skip-link-view.tsx';
import { SweepView } from '../sweep/sweep-view.tsx';
import { GalleryView } from '../gallery/gallery-view.tsx';
import { ViewTabsView } from './view-tabs-view.tsx';
import { usePageChannel } from './use-page-channel.ts';
import { TargetSwitchView } from '../header/target-switch-view.tsx';
import { runTargetOf } from '../../live/target-choice.ts';
import { usePageView } from './use-page-view.ts';
import { useStoredLink } from './use-stored-link.ts';
import { showStoredLink } from '../../state/stored-runs.ts';
import { ThemeToggleView } from '../header/theme-toggle-view.tsx';
import { CopyLinkView } from '../header/copy-link-view.tsx';
import { EmbedCodeView } from '../header/embed-code-view.tsx';
import { HistoryView } from '../history/history-view.tsx';
import { RecordedRunsView } from '../recorded-runs/recorded-runs-view.tsx';
import { FollowBannerView } from '../follow/follow-banner-view.tsx';
import { FollowShareView } from '../follow/follow-share-view.tsx';
import { useFollowMode, type FollowMode } from '../follow/use-follow-mode.ts';
import type { ObserveStore } from '../../live/observe-store.ts';
import { ObserveView } from '../observe/observe-view.tsx';
import { redisDownText } from '../../format/redis-down-text.ts';
import { RecordedNoteView } from './recorded-note-view.tsx';
import { useFirstVisit } from './use-first-visit.ts';

interface Props {
  channel: PageChannel;
  store: RunStore;
  sweepStore: SweepStore;
  /** The run history of this browser (IndexedDB), which watches the run store. */
  history: HistoryStore;
  /** The page's URL: the one store that reads and writes its hash. */
  url: PageUrl;
  /** The ?trace= documents, already shown by main.tsx; resolves with the view they ask for. */
  urlLoad: Promise<ViewChoice | null> | null;
  /** Sharing with the room (a page opened without ?follow=) or following a presenter (with it); default: may share. */
  follow?: FollowMode;
  /** The static site: no backend (the channel is an OfflineChannel); runs come from recordings and files only. */
  offline?: boolean;
  /** Observing the user's own client through the backend's observing port (absent on the static site). */
  observe?: ObserveStore;
  /**
   * Resolves true when the page opened with nothing to show (no ?trace=, not following, nothing put back from
   * history): the first screen then shows the default run's recording, then the run itself (use-first-visit.ts).
   * Absent: never (the static site, a follower's page).
   */
  openedEmpty?: Promise<boolean> | null;
}

export function AppView({ channel, store, sweepStore, history, url, urlLoad, follow: givenFollow, offline = false, observe, openedEmpty = null }: Props) {
  // The URL first: a link changed between the first render and these effects is adopted before anything writes.
  useEffect(() => url.start(), [url]);
  const status = useSyncExternalStore(channel.subscribe, channel.getSnapshot);
  const runs = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const sweepState = useSyncExternalStore(sweepStore.subscribe, sweepStore.getSnapshot);
  const historySnap = useSyncExternalStore(history.subscribe, history.getSnapshot);
  const { present, setPresent, tourStep, setTourStep } = usePresentation(url);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const { form, setForm, scale, setScale, moreOptions, setMoreOptions, target, setTarget } = useRunFormLink(url);
  // The Redis picked in the link (target=), told to the channel: it asks the backend and names it in each run.
  useEffect(() => channel.pickTarget?.(target), [channel, target]);
  const { view, setView, mounted, urlLoading } = usePageView(url, urlLoad);
  // The shared zoom and playhead, and zoom=, t= and speed= in the URL, both ways.
  const { zoomSync, playback, displayLink } = useDisplayLink(url);
  // Follow mode: an attendee's page shows the presenter's runs, view and playhead, and sends no runs.
  const setPage = useCallback((page: PageDisplay) => {
    setView(page.view);
    setScale(page.scale);
  }, [setView, setScale]);
  const follow = useMemo<FollowMode>(() => givenFollow ?? { role: 'presenter', store: new FollowShareStore(channel) }, [givenFollow, channel]);
  const followed = useFollowMode(follow, playback, url, { view, scale }, setPage);
  const following = followed !== null;
  // The sweep shares the channel's socket; the run store hears each message first (then the sweep, the history and the Observe tab).
  usePageChannel(channel, store, sweepStore, history, observe);

  const onExport = useCallback((doc: TraceDocument) => downloadTrace(doc), []);
  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const nextView = showLoaded(await loadTraceFiles(files), 'file', store, sweepStore, (docs, origins) => history.record(docs, origins, 'file'));
    if (nextView) setView(nextView);
  };

  const { connection, redis } = status;
  const { active, traces } = runs;
  // stored=: the runs on screen the backend keeps, so that a copied link opens them (not while a link is still opening).
  const openStored = useCallback((ids: readonly string[]) => {
    void showStoredLink(ids, store, sweepStore, (docs, origins) => history.record(docs, origins, 'url'));
  }, [store, sweepStore, history]);
  const keptIds = useStoredLink(url, runs, urlLoading || following, offline ? undefined : openStored);
  const blockedReason =
    offline ? 'This static site has no backend'
    : connection.status !== 'open' ? 'Not connected to the backend'
    : redis && !redis.up ? redisDownText(redis).headline
    : null;
  const firstVisit = useFirstVisit({
    openedEmpty: offline ? null : openedEmpty,
    form,
    runs,
    store,
    status,
    mayRun: view === 'run' && !following && tourStep === null && sweepState.active === null,
  });

  return (
    <div className={`app${settingsOpen ? ' settings-open' : ''}${tourStep !== null ? ' touring' : ''}`}>
      <SkipLinkView />
      <header className="app-header">
        <div className="brand">
          <img src="favicon.svg" alt="" width={26} height={26} />
          <h1>Pipescope</h1>
          <p className="tagline">What Redis pipelining really does — real runs, measured at the client socket.</p>
        </div>
        <div className="header-side">
          <div className="header-actions">
            <button type="button" className={`button${tourStep !== null ? ' on' : present ? ' primary' : ''}`} aria-pressed={tourStep !== null} data-testid="tour-toggle"
              onClick={() => setTourStep(tourStep === null ? 1 : null)}>
              Tour
            </button>
            <button type="button" className={`button${present ? ' on' : ''}`} aria-pressed={present} data-testid="present-toggle"
              title="Presenter mode: large type, high contrast, the settings folded away" onClick={() => setPresent(!present)}>
              Present
            </button>
            {present && (
              <button type="button" className="button" aria-expanded={settingsOpen} aria-controls="run-settings" data-testid="settings-toggle"
                onClick={() => setSettingsOpen(!settingsOpen)}>
                Settings {settingsOpen ? '▴' : '▾'}
              </button>
            )}
          </div>
          <ThemeToggleView url={url} />
          <CopyLinkView
            url={url}
            runsOutsideLink={view === 'run' && traces.length > 0 && runs.tracesSource !== 'url' && keptIds.length < traces.length}
            keptRuns={view === 'run' ? keptIds.length : 0}
            runsOnScreen={traces.length}
            beforeCopy={() => displayLink.writeNow()}
          />
          {/* Embedding is authoring, not presenting: presenter mode keeps its header to one row. */}
          {!present && (
            <EmbedCodeView
              traces={followed ? followed.traces : view === 'run' ? traces : []}
              source={followed ? 'live' : runs.tracesSource}
              url={url}
              beforeOpen={() => displayLink.writeNow()}
            />
          )}
          {!offline && status.targets?.offered && <TargetSwitchView choice={status.targets} onPick={setTarget} />}
          {!offline && <ConnectionPill status={status} />}
          {!offline && follow.role === 'presenter' && <FollowShareView store={follow.store} />}
        </div>
      </header>
      <main className="app-main" id={MAIN_ID} tabIndex={-1}>
        {!following && (
          <ViewTabsView
            view={view}
            onChange={setView}
            sweepRunning={sweepState.active !== null}
            historyCount={historySnap.status === 'on' ? historySnap.entries.length : null}
            offline={offline || !observe}
          />
        )}
        {!offline && <StatusBannerView connection={connection} redis={redis} onRetry={() => channel.retryNow()} />}
        {followed && <FollowBannerView follow={followed} playback={playback} />}
        {tourStep !== null && (
          <TourView
            step={tourStep}
            onStep={setTourStep}
            onClose={() => setTourStep(null)}
            live={!offline && connection.status === 'open' && (redis?.up ?? false)}
            liveWhere={redis ? `Redis ${redis.version ?? ''} · ${redis.address}` : 'Redis'}
            store={store}
            sweepStore={sweepStore}
            runs={runs}
            sweeps={sweepState}
            onView={setView}
            cluster={redis?.cluster !== undefined}
          />
        )}
        <RunControlsView
          form={form}
          onFormChange={setForm}
          store={store}
          runs={runs}
          privateCluster={(redis?.embedded ?? false) && redis?.cluster !== undefined}
          blockedReason={blockedReason ?? (sweepState.active ? 'A depth sweep is running' : null)}
          onOpenFiles={onFiles}
          // Presenter mode keeps the bar of everyday choices and Run (none while the tour, which runs its own steps, is open);
          // Settings unfolds the rest.
          hidden={view !== 'run' || following || (present && !settingsOpen && (offline || tourStep !== null))}
          barOnly={present && !settingsOpen}
          offline={offline}
          moreOptions={moreOptions}
          onMoreOptions={setMoreOptions}
          cluster={redis?.cluster ?? null}
          onTour={tourStep === null ? () => setTourStep(1) : undefined}
          onObservePreset={
            observe
              ? (p) => {
                  setView('observe');
                  if (p.observe) observe.runClients(p.observe.clients, p.observe.n);
                }
              : undefined
          }
        />
        {runs.message && (
          <p className={`message message-${runs.message.kind}`} role={runs.message.kind === 'error' ? 'alert' : 'status'}>
            {runs.message.text}
            <button type="button" className="link-button" onClick={() => store.setMessage(null)} aria-label="Dismiss">
              ×
            </button>
          </p>
        )}
        {followed ? (
          followed.traces.length > 0 && (
            <ResultsView traces={followed.traces} source="live" scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} url={url} displayLink={displayLink} />
          )
        ) : view === 'observe' && observe && !offline ? (
          <>
            <ObserveView store={observe} blockedReason={blockedReason} />
            {traces.length > 0 && (
              <ResultsView traces={traces} source={runs.tracesSource} scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} url={url} displayLink={displayLink} />
            )}
          </>
        ) : view !== 'run' ? null : traces.length > 0 ? (
          <ResultsView traces={traces} source={runs.tracesSource} scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} url={url} displayLink={displayLink} />
        ) : firstVisit.recorded ? (
          <>
            <RecordedNoteView recorded={firstVisit.recorded} status={status} measuring={firstVisit.autoRun && active !== null} />
            <ResultsView traces={firstVisit.recorded.traces} source="recorded" scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} url={url} displayLink={displayLink} />
          </>
        ) : offline ? (
          !urlLoading && <RecordedRunsView />
        ) : (
          <EmptyState running={active !== null} title={pressRunTitle(formModes(form), Number(form.chunk) || undefined)} />
        )}
        {mounted('sweep') && !following && (
          <SweepView
            sweeps={sweepStore}
            shown={view === 'sweep'}
            url={url}
            blockedReason={blockedReason ?? (active ? 'A run is in progress' : null)}
            onOpenFiles={(files) => void onFiles(files)}
            offline={offline}
          />
        )}
        {mounted('gallery') && !following && (
          <GalleryView
            store={store}
            shown={view === 'gallery'}
            blockedReason={blockedReason ?? (sweepState.active ? 'A depth sweep is running' : null)}
            onShowRuns={() => setView('run')}
            offline={offline}
          />
        )}
        {mounted('history') && !following && (
          <HistoryView
            history={history}
            shown={view === 'history'}
            onShowRuns={(compare) => {
              if (compare) setScale('shared');
              setView('run');
            }}
          />
        )}
      </main>
      <footer className="app-footer">
        Times are µs on the client’s monotonic clock from each run’s t0 (the instant the run called the client for its first command),
        measured where the client meets the socket. Redis figures are INFO deltas around the run; MONITOR adds execution times (on the
        client’s clock, ± the stated uncertainty), strace Redis’s system calls, ss the kernel’s TCP figures for the run’s socket.
        {status.backendVersion ? ` Pipescope backend ${status.backendVersion}.` : ''}
        {offline ? ' This static site replays recorded runs and trace files: it has no backend.' : ''}
      </footer>
    </div>
  );
}

function ConnectionPill({ status }: { status: ChannelStatus }) {
  const { connection, redis } = status;
  const backend = connection.status === 'open' ? 'connected' : connection.status === 'connecting' ? 'connecting…' : 'offline';
  const what = status.targets && runTargetOf(status.targets) === 'cluster' ? 'Redis Cluster' : 'Redis';
  const redisText = !redis ? '' : redis.up ? `${what} ${redis.version ?? ''} · ${redis.address}${redis.embedded ? ' (private)' : ''}` : `${what} down · ${redis.address}`;
  const ok = connection.status === 'open' && (redis?.up ?? false);
  return (
    <div className={`connection-pill ${ok ? 'ok' : connection.status === 'closed' || redis?.up === false ? 'bad' : 'pending'}`} title="Live backend connection (WebSocket /live)">
      <span className="dot" aria-hidden="true" />
      backend {backend}
      {redisText && connection.status === 'open' ? ` · ${redisText}` : ''}
    </div>
  );
}

function EmptyState({ running, title }: { running: boolean; title: string }) {
  return (
    <section className="empty">
      {running ? (
        <p>The diagrams appear as soon as the first run completes.</p>
      ) : (
        <>
          <h2 data-testid="empty-title">{title}</h2>
          <p>
            Pipescope sends the N commands to a real Redis in each mode chosen above (their repeats interleaved) and draws every request and
            reply at the time the client socket saw it. Or open a trace file recorded earlier.
          </p>
        </>
      )}
    </section>
  );
}
