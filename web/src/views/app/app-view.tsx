// The page: header with connection status, banner, run form and progress, file controls, results.
// Holds the form and scale (mirrored into the URL hash) and reads the live channel's status and the run
// store; everything that moves per frame lives below, in the diagram controllers.
// `offline` (the static site, base/site-mode.ts, chosen by main.tsx) is the one switch for a page without a
// backend: no connection pill or banner, no run form, sweep form or Run buttons, no follow/share; the
// landing page lists the recorded runs instead (recorded-runs-view.tsx).
// The shared controls' and the page's rules before any view's own, which may refine them.
import './controls.css';
import './app-view.css';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { RunSpec } from '../../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import type { PageChannel, ChannelStatus } from '../../live/live-channel.ts';
import type { RunStore } from '../../live/run-store.ts';
import { hashField, writeHashFields } from '../../state/hash-fields.ts';
import { ViewHashGuard } from '../../state/view-hash-guard.ts';
import { DisplayHashSync } from '../../state/display-hash-sync.ts';
import { tourStepOf } from '../../format/tour-steps.ts';
import { TourView } from '../tour/tour-view.tsx';
import { formModes, type RunFormState } from '../../state/run-form-state.ts';
import { applyPreset } from '../../state/network-presets.ts';
import { downloadTrace, loadTraceFiles } from '../../state/trace-files.ts';
import { showLoaded } from '../../state/show-loaded.ts';
import { formatHashParams, parseHashParams, type HashParams, type ScaleChoice } from '../../state/url-hash-params.ts';
import { NetworkPresetsView } from '../run-form/network-presets-view.tsx';
import { ResultsView } from '../results/results-view.tsx';
import { RunFormView } from '../run-form/run-form-view.tsx';
import { RunProgressView } from '../run-form/run-progress-view.tsx';
import { LongRunConfirmView } from '../run-form/long-run-confirm-view.tsx';
import { baseRttUs, longRunCheck, type LongRun } from '../../format/rtt-estimate.ts';
import { pressRunTitle } from '../../format/run-label.ts';
import { StatusBannerView } from './status-banner-view.tsx';
import type { SweepStore } from '../../live/sweep-store.ts';
import { parseViewChoice, runViewPartOf, type ViewChoice } from '../../state/sweep-hash-params.ts';
import { SweepView } from '../sweep/sweep-view.tsx';
import { GalleryView } from '../gallery/gallery-view.tsx';
import { ViewTabsView } from './view-tabs-view.tsx';
import { ThemeToggleView } from '../header/theme-toggle-view.tsx';
import { CopyLinkView } from '../header/copy-link-view.tsx';
import { EmbedCodeView } from '../header/embed-code-view.tsx';
import { HistoryView } from '../history/history-view.tsx';
import { RecordedRunsView } from '../recorded-runs/recorded-runs-view.tsx';
import { FollowBannerView } from '../follow/follow-banner-view.tsx';
import { FollowShareView } from '../follow/follow-share-view.tsx';
import { useFollowMode, type FollowMode } from '../follow/use-follow-mode.ts';
import type { PageDisplay } from '../../state/follow-display.ts';
import { FollowShareStore } from '../../live/follow-share-store.ts';
import type { HistoryStore } from '../../state/history-store.ts';
import type { ObserveStore } from '../../live/observe-store.ts';
import { ObserveView } from '../observe/observe-view.tsx';

function formOf(p: HashParams): RunFormState {
  return {
    command: p.command, n: String(p.n), valueBytes: String(p.valueBytes), mode: p.mode, chunk: String(p.chunk), rttMs: String(p.rttMs), jitterMs: String(p.jitterMs),
    monitor: p.monitor, strace: p.strace, cold: p.cold, repeats: String(p.repeats), engine: p.engine, modes: p.modes, chunkPauseMs: String(p.chunkPauseMs),
    plantError: p.errorAt !== null, errorAt: String(p.errorAt ?? 0), errorKind: p.errorKind, neighborRate: String(p.neighborRate), neighborCommand: p.neighborCommand,
    heldConnection: p.heldConnection,
  };
}

interface Props {
  channel: PageChannel;
  store: RunStore;
  sweepStore: SweepStore;
  /** The run history of this browser (IndexedDB), which watches the run store. */
  history: HistoryStore;
  /** The ?trace= documents, already shown by main.tsx; resolves with the view they ask for. */
  urlLoad: Promise<ViewChoice | null> | null;
  /** Sharing with the room (a page opened without ?follow=) or following a presenter (with it); default: may share. */
  follow?: FollowMode;
  /** The static site: no backend (the channel is an OfflineChannel); runs come from recordings and files only. */
  offline?: boolean;
  /** Observing the user's own client through the backend's observing port (absent on the static site). */
  observe?: ObserveStore;
}

export function AppView({ channel, store, sweepStore, history, urlLoad, follow: givenFollow, offline = false, observe }: Props) {
  const status = useSyncExternalStore(channel.subscribe, channel.getSnapshot);
  const runs = useSyncExternalStore(store.subscribe, store.getSnapshot);
  // Presenter mode (#present=1) and the tour step (#tour=N, 1-based): display keys of their own in the hash.
  const [present, setPresent] = useState(() => hashField(window.location.hash, 'present') === '1');
  const [tourStep, setTourStep] = useState<number | null>(() => tourStepOf(hashField(window.location.hash, 'tour')));
  const [settingsOpen, setSettingsOpen] = useState(false);
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', present);
    writeHashFields({ present: present ? '1' : null });
  }, [present]);
  useEffect(() => writeHashFields({ tour: tourStep === null ? null : String(tourStep) }), [tourStep]);
  const initial = useMemo(() => parseHashParams(window.location.hash), []);
  const [form, setForm] = useState<RunFormState>(() => formOf(initial));
  const [scale, setScale] = useState<ScaleChoice>(initial.scale);
  const zoomSync = useMemo(() => new TimeZoomSync(), []);
  // The one playhead of the diagrams on screen (playback bar, keys, URL t=, follow mode).
  const playback = useMemo(() => new PlaybackClock(), []);
  // zoom=, t= and speed= in the URL, both ways (applied on load and on hashchange, written as they change).
  const displayHash = useMemo(() => new DisplayHashSync(zoomSync, playback), [zoomSync, playback]);
  useEffect(() => displayHash.start(), [displayHash]);
  const fileInput = useRef<HTMLInputElement>(null);
  // The depth sweep shares the channel's socket; its view stays mounted (see sweep-view.tsx).
  const [view, setView] = useState<ViewChoice>(() => parseViewChoice(window.location.hash));
  const sweepState = useSyncExternalStore(sweepStore.subscribe, sweepStore.getSnapshot);
  // Follow mode: an attendee's page shows the presenter's runs, view and playhead, and sends no runs.
  const setPage = useCallback((page: PageDisplay) => {
    setView(page.view);
    setScale(page.scale);
  }, []);
  const follow = useMemo<FollowMode>(() => givenFollow ?? { role: 'presenter', store: new FollowShareStore(channel) }, [givenFollow, channel]);
  const followed = useFollowMode(follow, playback, { view, scale }, setPage);
  const following = followed !== null;
  // Mounted the first time it is shown (a page that only draws runs need not build it), then kept, hidden, so a
  // sweep keeps its form and points while the user looks at single runs.
  const [sweepMounted, setSweepMounted] = useState(view === 'sweep');
  if (view === 'sweep' && !sweepMounted) setSweepMounted(true);
  // The gallery likewise: mounted when first shown, then kept, so each card keeps its results.
  const [galleryMounted, setGalleryMounted] = useState(view === 'gallery');
  if (view === 'gallery' && !galleryMounted) setGalleryMounted(true);
  // The history view likewise (its picks stay); the history itself is kept whether shown or not.
  const historySnap = useSyncExternalStore(history.subscribe, history.getSnapshot);
  const [historyMounted, setHistoryMounted] = useState(view === 'history');
  if (view === 'history' && !historyMounted) setHistoryMounted(true);
  // Both stores listen before the channel opens, the run store first, so they hear every message in that order.
  useEffect(() => store.attach(), [store]);
  useEffect(() => sweepStore.attach(), [sweepStore]);
  useEffect(() => history.attach(), [history]);
  useEffect(() => observe?.attach(), [observe]);

  useEffect(() => {
    channel.start();
    return () => channel.stop();
  }, [channel]);

  // The URL → presenter mode, tour step, view, form and scale: on hashchange, and when the form writer finds
  // a change it has not heard of (view-hash-guard.ts).
  const runHashGuard = useMemo(() => new ViewHashGuard(runViewPartOf), []);
  const adoptHash = useCallback(() => {
    runHashGuard.seen();
    setPresent(hashField(window.location.hash, 'present') === '1');
    setTourStep(tourStepOf(hashField(window.location.hash, 'tour')));
    const nextView = parseViewChoice(window.location.hash);
    setView(nextView);
    if (nextView !== 'run') return;
    const p = parseHashParams(window.location.hash);
    setForm(formOf(p));
    setScale(p.scale);
  }, [runHashGuard]);
  useEffect(() => {
    window.addEventListener('hashchange', adoptHash);
    return () => window.removeEventListener('hashchange', adoptHash);
  }, [adoptHash]);

  // Form and scale → URL hash. A half-typed number keeps the last good value in the hash.
  useEffect(() => {
    if (view !== 'run') return; // the sweep view writes its own
    if (runHashGuard.changedOutside()) {
      adoptHash(); // the URL changed after the first render and before this write: it wins
      return;
    }
    const current = parseHashParams(window.location.hash);
    const typed = parseHashParams(
      `#n=${encodeURIComponent(form.n)}&valueBytes=${encodeURIComponent(form.valueBytes)}&rttMs=${encodeURIComponent(form.rttMs)}&jitterMs=${encodeURIComponent(form.jitterMs)}&chunk=${encodeURIComponent(form.chunk)}&repeats=${encodeURIComponent(form.repeats)}&chunkPauseMs=${encodeURIComponent(form.chunkPauseMs)}&neighborRate=${encodeURIComponent(form.neighborRate)}&errorAt=${encodeURIComponent(form.errorAt)}`,
    );
    type Typed = 'n' | 'valueBytes' | 'rttMs' | 'jitterMs' | 'chunk' | 'repeats' | 'chunkPauseMs' | 'neighborRate';
    const good = (key: Typed) => (typed[key] === Number(form[key]) ? typed[key] : current[key]);
    const errorAt = typed.errorAt !== null && typed.errorAt === Number(form.errorAt) ? typed.errorAt : (current.errorAt ?? 0);
    const hash = formatHashParams({
      command: form.command,
      mode: form.mode,
      chunk: good('chunk'),
      scale,
      n: good('n'),
      valueBytes: good('valueBytes'),
      rttMs: good('rttMs'),
      jitterMs: good('jitterMs'),
      monitor: form.monitor,
      strace: form.strace,
      cold: form.cold,
      repeats: good('repeats'),
      engine: form.engine,
      modes: form.modes.length > 0 ? form.modes : current.modes,
      chunkPauseMs: good('chunkPauseMs'),
      errorAt: form.plantError ? errorAt : null,
      errorKind: form.errorKind,
      neighborRate: good('neighborRate'),
      neighborCommand: form.neighborCommand,
      heldConnection: form.heldConnection,
    });
    runHashGuard.write(hash);
  }, [form, scale, view, runHashGuard, adoptHash]);

  // While ?trace= links load, the static site's landing page waits (it shows if none could be drawn).
  const [urlLoading, setUrlLoading] = useState(urlLoad !== null);
  useEffect(() => {
    let live = true;
    void urlLoad?.then((nextView) => {
      if (live && nextView) setView(nextView);
    }).finally(() => live && setUrlLoading(false));
    return () => {
      live = false;
    };
  }, [urlLoad]);

  const [pendingLongRun, setPendingLongRun] = useState<{ spec: RunSpec; longRun: LongRun } | null>(null);
  const onRun = useCallback(
    (spec: RunSpec) => {
      const longRun = longRunCheck(spec, baseRttUs(runs.traces.at(-1)));
      if (longRun) setPendingLongRun({ spec, longRun });
      else void store.run(spec);
    },
    [store, runs.traces],
  );
  const onExport = useCallback((doc: TraceDocument) => downloadTrace(doc), []);
  const onFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const nextView = showLoaded(await loadTraceFiles(files), 'file', store, sweepStore, (docs, origins) => history.record(docs, origins, 'file'));
    if (nextView) setView(nextView);
    if (fileInput.current) fileInput.current.value = '';
  };

  const { connection, redis } = status;
  const { active, traces } = runs;
  const blockedReason =
    offline ? 'This static site has no backend'
    : connection.status !== 'open' ? 'Not connected to the backend'
    : redis && !redis.up ? 'Redis is unreachable'
    : null;

  return (
    <div className={`app${settingsOpen ? ' settings-open' : ''}${tourStep !== null ? ' touring' : ''}`}>
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
          <ThemeToggleView />
          <CopyLinkView runsOutsideLink={view === 'run' && traces.length > 0 && runs.tracesSource !== 'url'} beforeCopy={() => displayHash.writeNow()} />
          {/* Embedding is authoring, not presenting: presenter mode keeps its header to one row. */}
          {!present && (
            <EmbedCodeView
              traces={followed ? followed.traces : view === 'run' ? traces : []}
              source={followed ? 'live' : runs.tracesSource}
              beforeOpen={() => displayHash.writeNow()}
            />
          )}
          {!offline && <ConnectionPill status={status} />}
          {!offline && follow.role === 'presenter' && <FollowShareView store={follow.store} />}
        </div>
      </header>
      <main className="app-main">
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
          />
        )}
        <section className="controls" id="run-settings" hidden={view !== 'run' || following || (present && !settingsOpen)}>
          {!offline && <RunFormView
            form={form}
            onChange={setForm}
            onRun={onRun}
            onCancel={() => store.cancel()}
            running={active !== null}
            cancelling={active?.cancelling ?? false}
            blockedReason={blockedReason ?? (sweepState.active ? 'A depth sweep is running' : null)}
          />}
          {pendingLongRun && (
            <LongRunConfirmView
              n={pendingLongRun.spec.n}
              rttMs={pendingLongRun.spec.rttMs}
              longRun={pendingLongRun.longRun}
              onRunAnyway={() => {
                void store.run(pendingLongRun.spec);
                setPendingLongRun(null);
              }}
              onReduce={(n) => {
                setForm({ ...form, n: String(n) });
                void store.run({ ...pendingLongRun.spec, n });
                setPendingLongRun(null);
              }}
              onDismiss={() => setPendingLongRun(null)}
            />
          )}
          {!offline && <RunProgressView active={active} />}
          <div className="file-controls">
            {offline && traces.length > 0 && (
              <a className="button" href="./" data-testid="recorded-runs-link">
                All recorded runs
              </a>
            )}
            <label className="button">
              Open trace…
              <input
                ref={fileInput}
                className="visually-hidden"
                type="file"
                accept=".json,.gz,application/json,application/gzip"
                multiple
                data-testid="import"
                onChange={(e) => void onFiles(e.target.files)}
              />
            </label>
          </div>
          {!offline && (
            <NetworkPresetsView
              form={form}
              onApply={(p) => {
                // A preset of real clients runs them through the observing port, in the Observe tab.
                if (p.observe && observe) {
                  setView('observe');
                  observe.runClients(p.observe.clients, p.observe.n);
                } else setForm(applyPreset(form, p));
              }}
            />
          )}
        </section>
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
            <ResultsView traces={followed.traces} source="live" scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} displayHash={displayHash} />
          )
        ) : view === 'observe' && observe && !offline ? (
          <>
            <ObserveView store={observe} blockedReason={blockedReason} />
            {traces.length > 0 && (
              <ResultsView traces={traces} source={runs.tracesSource} scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} displayHash={displayHash} />
            )}
          </>
        ) : view !== 'run' ? null : traces.length > 0 ? (
          <ResultsView traces={traces} source={runs.tracesSource} scale={scale} onScaleChange={setScale} zoomSync={zoomSync} playback={playback} onExport={onExport} displayHash={displayHash} />
        ) : offline ? (
          !urlLoading && <RecordedRunsView />
        ) : (
          <EmptyState running={active !== null} title={pressRunTitle(formModes(form), Number(form.chunk) || undefined)} />
        )}
        {sweepMounted && !following && (
          <SweepView
            sweeps={sweepStore}
            shown={view === 'sweep'}
            blockedReason={blockedReason ?? (active ? 'A run is in progress' : null)}
            onOpenFiles={(files) => void onFiles(files)}
            offline={offline}
          />
        )}
        {galleryMounted && !following && (
          <GalleryView
            store={store}
            shown={view === 'gallery'}
            blockedReason={blockedReason ?? (sweepState.active ? 'A depth sweep is running' : null)}
            onShowRuns={() => setView('run')}
            offline={offline}
          />
        )}
        {historyMounted && !following && (
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
  const redisText = !redis ? '' : redis.up ? `Redis ${redis.version ?? ''} · ${redis.address}${redis.embedded ? ' (private)' : ''}` : `Redis down · ${redis.address}`;
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
