// <pipescope-player>: a recorded run (or several, compared on one time axis) replayed without React and
// without a backend. Its attributes are the embed parameters (state/embed-params.ts, `src` for the trace
// URLs); it draws each run with the app's DiagramController inside its shadow root (styles adopted from
// player-styles.ts, the tooltip kept inside), plays them back on one PlaybackClock of its own with the
// compact control bar (control-bar.ts), and lists each run's measured figures (summary-panel.ts).
// Keys work while focus is inside it (several players may share a page): Space, ←/→, `,`/`.`, Home/End, +/−.
// API: play(), pause(), seek(µs), load(urls); events pipescope-ready {traces, durationUs}, pipescope-state
// {positionUs, playing, speed, endUs} (≤ 10/s), pipescope-error {message}. Host attributes for tests and
// styling: data-state (poster|loading|ready|error), data-position-us, data-playing, data-speed,
// data-end-us, data-render-pending.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { defaultSpeedFor, PlaybackClock, type PlaybackSnapshot } from '../interaction/playback-clock.ts';
import { applyClockAction, keyAction } from '../interaction/playback-keys.ts';
import { TimeZoomSync } from '../interaction/time-zoom-sync.ts';
import { DIAGRAM_HEIGHT } from '../layout/diagram-geometry.ts';
import { mergedEventTimes } from '../model/playback-events.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { runTitle, modeLabel } from '../format/run-label.ts';
import { DiagramController } from '../paint/diagram-controller.ts';
import { attributeSource, parseEmbedParams, readFlag, readPanels, readTheme, type EmbedParams } from '../state/embed-params.ts';
import { snapSpeed } from '../state/link-values.ts';
import { resolveTheme } from '../state/theme-choice.ts';
import type { EmbedReady, EmbedState } from '../../../trace/protocol/embed-protocol.ts';
import { ControlBar } from './control-bar.ts';
import { loadPlayerTraces } from './player-loader.ts';
import { adoptPlayerStyles } from './player-styles.ts';
import { Throttle } from './state-throttle.ts';
import { renderSummary } from './summary-panel.ts';

export const PLAYER_TAG = 'pipescope-player';
export const POSTER_TEXT = 'Click to load the recorded run';

export type PlayerStatus = 'poster' | 'loading' | 'ready' | 'error';

const DARK_QUERY = '(prefers-color-scheme: dark)';
const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

export class PipescopePlayerElement extends HTMLElement {
  static readonly observedAttributes = ['src', 'theme', 'controls', 'panels', 'speed', 'loop'];

  private readonly shadow: ShadowRoot;
  private view: PlayerView | null = null;
  /** Set by play()/seek() before the runs are drawn (a lazy poster, a load under way): applied once they are. */
  private pending: { play?: boolean; seekUs?: number } = {};

  constructor() {
    super();
    this.shadow = this.attachShadow({ mode: 'open' });
    adoptPlayerStyles(this.shadow);
  }

  connectedCallback(): void {
    if (this.view) return;
    this.view = new PlayerView(this, this.shadow, this.params(), () => this.takePending());
  }

  disconnectedCallback(): void {
    this.view?.destroy();
    this.view = null;
  }

  attributeChangedCallback(name: string, old: string | null, value: string | null): void {
    const view = this.view;
    if (!view || old === value) return;
    if (name === 'src') view.start(this.params());
    else if (name === 'theme') view.setTheme(readTheme(value));
    else if (name === 'controls' || name === 'panels') view.setLayout(readFlag(this.getAttribute('controls'), true), readPanels(this.getAttribute('panels')));
    else if (name === 'speed') {
      const speed = snapSpeed(value);
      if (speed !== null) view.clock.setSpeed(speed);
    }
  }

  /** Plays from the playhead (from the start at the end); before the runs are drawn, once they are (a lazy poster loads). */
  play(): void {
    if (this.view?.status === 'ready') this.view.clock.play();
    else {
      this.pending.play = true;
      if (this.view?.status === 'poster') this.view.load(this.params().traceUrls);
    }
  }

  pause(): void {
    this.pending.play = false;
    this.view?.clock.pause();
  }

  /** Moves the playhead to `us` µs since t0 (clamped to the runs' timeline). */
  seek(us: number): void {
    if (!Number.isFinite(us)) return;
    if (this.view?.status === 'ready') this.view.clock.seek(Math.max(0, us));
    else this.pending.seekUs = Math.max(0, us);
  }

  /** Replaces the runs shown with the traces at `urls` (a URL, or several to compare); lazy or not, it loads now. */
  load(urls: string | readonly string[]): void {
    const list = (typeof urls === 'string' ? [urls] : [...urls]).map((u) => String(u).trim()).filter((u) => u.length > 0);
    this.view?.load(list);
  }

  /** The playback state as the pipescope-state event carries it. */
  get playbackState(): EmbedState | null {
    return this.view ? stateOf(this.view.clock.getSnapshot()) : null;
  }

  private params(): EmbedParams {
    return parseEmbedParams(attributeSource(this), 'src');
  }

  private takePending(): { play?: boolean; seekUs?: number } {
    const pending = this.pending;
    this.pending = {};
    return pending;
  }
}

/** What one connected player holds: its DOM inside the shadow root, its clock, its diagrams. Gone on disconnect. */
class PlayerView {
  readonly clock: PlaybackClock;
  status: PlayerStatus = 'loading';
  private readonly scheduler: FrameScheduler;
  private readonly zoomSync = new TimeZoomSync();
  private readonly frame: HTMLDivElement;
  private readonly errorBox: HTMLDivElement;
  private readonly statusLine: HTMLDivElement;
  private readonly poster: HTMLDivElement;
  private readonly runs: HTMLDivElement;
  private readonly summary: HTMLUListElement;
  private readonly bar: ControlBar;
  private readonly throttle: Throttle;
  private readonly unsubscribeClock: () => void;
  private readonly darkQuery: MediaQueryList | null;
  private readonly motionQuery: MediaQueryList | null;
  private controllers: DiagramController[] = [];
  private theme: EmbedParams['theme'];
  private params: EmbedParams;
  private loadToken = 0;
  private wasPlaying = false;
  /** End pressed: the playhead at the end is the user's, not a loop's cue. */
  private endedByKey = false;

  constructor(
    private readonly host: HTMLElement,
    private readonly shadow: ShadowRoot,
    params: EmbedParams,
    private readonly takePending: () => { play?: boolean; seekUs?: number },
  ) {
    this.params = params;
    this.theme = params.theme;
    this.scheduler = new FrameScheduler(undefined, (pending) => { host.dataset['renderPending'] = String(pending); });
    this.clock = new PlaybackClock(this.scheduler);
    this.frame = div('pipescope-theme player');
    this.frame.tabIndex = -1;
    this.frame.setAttribute('role', 'region');
    this.frame.setAttribute('aria-label', 'Pipescope player: a recorded Redis run');
    this.poster = div('player-poster');
    this.statusLine = div('player-status');
    this.statusLine.setAttribute('role', 'status');
    this.errorBox = div('player-error');
    this.errorBox.setAttribute('role', 'alert');
    this.errorBox.dataset['testid'] = 'player-error';
    this.errorBox.hidden = true;
    this.bar = new ControlBar(this.clock);
    this.runs = div('player-runs');
    this.summary = document.createElement('ul');
    this.summary.className = 'player-summary';
    this.summary.dataset['testid'] = 'player-summary';
    this.frame.append(this.poster, this.errorBox, this.statusLine, this.bar.element, this.runs, this.summary);
    shadow.append(this.frame);
    this.frame.addEventListener('keydown', this.onKeyDown);
    this.throttle = new Throttle(() => host.dispatchEvent(new CustomEvent<EmbedState>('pipescope-state', { detail: stateOf(this.clock.getSnapshot()) })));
    this.unsubscribeClock = this.clock.subscribe(this.onClock);
    this.darkQuery = typeof matchMedia === 'function' ? matchMedia(DARK_QUERY) : null;
    this.darkQuery?.addEventListener('change', this.applyTheme);
    this.motionQuery = typeof matchMedia === 'function' ? matchMedia(REDUCED_MOTION_QUERY) : null;
    this.motionQuery?.addEventListener('change', this.applyMotion);
    this.applyTheme();
    this.applyMotion();
    this.start(params);
  }

  /** A poster (lazy: nothing fetched until clicked) or the load of the params' traces. */
  start(params: EmbedParams): void {
    this.params = params;
    this.setLayout(params.controls, params.panels);
    if (params.lazy && params.traceUrls.length > 0) this.showPoster(params.traceUrls);
    else this.load(params.traceUrls);
  }

  setTheme(theme: EmbedParams['theme']): void {
    this.theme = theme;
    this.applyTheme();
  }

  setLayout(controls: boolean, panels: EmbedParams['panels']): void {
    this.params = { ...this.params, controls, panels };
    const ready = this.status === 'ready';
    this.bar.element.hidden = !(ready && controls);
    this.runs.hidden = !(ready && panels.includes('diagram'));
    this.summary.hidden = !(ready && panels.includes('summary'));
    // Order: the panels as listed (summary above the diagram when named first).
    if (panels[0] === 'summary') this.frame.insertBefore(this.summary, this.runs);
    else this.frame.insertBefore(this.runs, this.summary);
  }

  async load(urls: readonly string[]): Promise<void> {
    const token = ++this.loadToken;
    this.clock.pause();
    this.setStatus('loading');
    this.poster.hidden = true;
    this.statusLine.hidden = false;
    this.statusLine.textContent = 'Loading the recorded run…';
    const { docs, errors, publicErrors } = await loadPlayerTraces(urls);
    if (token !== this.loadToken || !this.host.isConnected) return;
    this.statusLine.hidden = true;
    this.showErrors(errors, publicErrors);
    if (docs.length === 0) {
      this.clearRuns();
      this.setStatus('error');
      this.setLayout(this.params.controls, this.params.panels);
      return;
    }
    this.showRuns(docs);
    // Ready once drawn: queued after the diagrams' first paints, so it runs in the same frame, after them.
    this.scheduler.request(this, () => {
      if (token !== this.loadToken) return;
      this.setStatus('ready');
      this.setLayout(this.params.controls, this.params.panels);
      const durationUs = this.clock.getSnapshot().endUs;
      this.host.dataset['traces'] = String(docs.length);
      this.host.dispatchEvent(new CustomEvent<EmbedReady>('pipescope-ready', { detail: { traces: docs.length, durationUs } }));
      const pending = this.takePending();
      const start = pending.seekUs ?? this.params.t;
      if (start !== null && start !== undefined) this.clock.seek(start);
      if (pending.play ?? this.params.autoplay) this.clock.play();
    });
  }

  destroy(): void {
    this.loadToken++;
    this.clearRuns();
    this.bar.destroy();
    this.throttle.cancel();
    this.unsubscribeClock();
    this.clock.pause();
    this.darkQuery?.removeEventListener('change', this.applyTheme);
    this.motionQuery?.removeEventListener('change', this.applyMotion);
    this.frame.removeEventListener('keydown', this.onKeyDown);
    this.frame.remove();
  }

  private showPoster(urls: readonly string[]): void {
    this.setStatus('poster');
    this.statusLine.hidden = true;
    this.errorBox.hidden = true;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'player-button';
    button.dataset['testid'] = 'player-poster-button';
    button.textContent = `▶ ${POSTER_TEXT}`;
    button.addEventListener('click', () => this.load(urls));
    const note = div('player-poster-note');
    note.textContent = urls.map((u) => u.split('/').pop() || u).join(' · ');
    this.poster.replaceChildren(button, note);
    this.poster.hidden = false;
    this.setLayout(this.params.controls, this.params.panels);
  }

  private showRuns(docs: readonly TraceDocument[]): void {
    this.clearRuns();
    const columns = docs.map(traceColumns);
    // One time axis for all the runs (the app's shared scale): the longest run's end.
    const endUs = Math.max(1, ...columns.map((c) => c.endUs));
    this.clock.seek(null);
    this.clock.setEnd(endUs);
    this.clock.setStops(mergedEventTimes(columns));
    if (this.params.speed !== null) this.clock.setSpeed(this.params.speed);
    else this.clock.suggestSpeed(defaultSpeedFor(endUs));
    this.runs.hidden = false; // laid out before the controllers measure their width
    docs.forEach((doc) => {
      const figure = document.createElement('figure');
      figure.className = 'player-run';
      figure.dataset['testid'] = 'run-panel';
      figure.dataset['mode'] = doc.run.mode;
      figure.dataset['n'] = String(doc.run.n);
      const caption = document.createElement('figcaption');
      const title = `${modeLabel(doc.run.mode, doc.run.chunk)} · ${runTitle(doc.run)}`;
      caption.textContent = title;
      const diagramHost = div('diagram-host');
      diagramHost.style.height = `${DIAGRAM_HEIGHT}px`;
      figure.append(caption, diagramHost);
      this.runs.append(figure);
      const controller = new DiagramController(diagramHost, { current: figure }, this.zoomSync, this.scheduler, `Sequence diagram: ${title}`, {
        tooltipHost: this.shadow,
        themeRoot: this.frame,
      });
      controller.setData(doc, endUs);
      controller.setPlayback(this.clock);
      this.controllers.push(controller);
    });
    renderSummary(this.summary, docs);
  }

  private clearRuns(): void {
    for (const c of this.controllers) c.destroy();
    this.controllers = [];
    this.runs.replaceChildren();
    this.summary.replaceChildren();
    this.zoomSync.reset();
  }

  /** Shows each error; pipescope-error carries it, and as publicMessage the same without anything read from a response. */
  private showErrors(errors: readonly string[], publicErrors: readonly string[] = errors): void {
    this.errorBox.replaceChildren(...errors.map((e) => {
      const p = document.createElement('p');
      p.textContent = e;
      return p;
    }));
    this.errorBox.hidden = errors.length === 0;
    for (const [i, message] of errors.entries()) {
      this.host.dispatchEvent(new CustomEvent('pipescope-error', { detail: { message, publicMessage: publicErrors[i] ?? message } }));
    }
  }

  private setStatus(status: PlayerStatus): void {
    this.status = status;
    this.host.dataset['state'] = status;
  }

  private readonly onClock = (): void => {
    const snapshot = this.clock.getSnapshot();
    const data = this.host.dataset;
    if (snapshot.positionUs === null) delete data['positionUs'];
    else data['positionUs'] = String(snapshot.positionUs);
    data['playing'] = String(snapshot.playing);
    data['speed'] = String(snapshot.speed);
    data['endUs'] = String(snapshot.endUs);
    // loop: a run played to its end starts again (not when End was pressed or it was paused).
    const ended = this.wasPlaying && !snapshot.playing && snapshot.positionUs === snapshot.endUs && snapshot.endUs > 0;
    this.wasPlaying = snapshot.playing;
    if (ended && !this.endedByKey && readFlag(this.host.getAttribute('loop'), false)) this.clock.play();
    this.endedByKey = false;
    this.throttle.poke();
  };

  private readonly onKeyDown = (event: KeyboardEvent): void => {
    const action = keyAction(event);
    if (action === null || this.status !== 'ready') return;
    if (action === 'end') this.endedByKey = true; // the playhead at the end is the user's, not a loop's cue
    if (!applyClockAction(this.clock, action)) return; // full screen and help are the app's
    event.preventDefault();
  };

  private readonly applyTheme = (): void => {
    this.frame.dataset['theme'] = resolveTheme(this.theme, this.darkQuery?.matches ?? false);
  };

  private readonly applyMotion = (): void => {
    this.clock.setDiscrete(this.motionQuery?.matches ?? false);
  };
}

function stateOf(s: PlaybackSnapshot): EmbedState {
  return { positionUs: s.positionUs, playing: s.playing, speed: s.speed, endUs: s.endUs };
}

function div(className: string): HTMLDivElement {
  const element = document.createElement('div');
  element.className = className;
  return element;
}
