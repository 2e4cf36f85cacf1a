// The guided tour's panel: the step's title and sentences, "Run this step" (one click runs its
// preset live through the run or sweep store; with no backend reachable it loads the step's recording
// from public/tour/ instead and says so), the verdict measured from what the step produced, and
// Previous / Next. A presentation clicker drives it: while the tour is open, PageDown runs the step if
// it has not run yet, else goes to the next; PageUp goes back. Those two keys (and only those) are taken
// in the capture phase on window, before the page's media keys hear them.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SweepDocument } from '../../../../trace/format/sweep-format.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { TOUR_STEPS, type TourStep } from '../../format/tour-steps.ts';
import type { TourResult } from '../../format/tour-verdicts.ts';
import type { RunSnapshot, RunStore } from '../../live/run-store.ts';
import type { SweepSnapshot, SweepStore } from '../../live/sweep-store.ts';
import type { TraceSource } from '../../live/store-types.ts';
import { showLoaded } from '../../state/show-loaded.ts';
import type { ViewChoice } from '../../state/page-choices.ts';
import { loadTourRecording, provenanceText } from '../../state/tour-recordings.ts';
import './tour-view.css';

/** What a step has produced in this page: being run, its result (live or recorded), or why it failed. */
type StepState =
  | { status: 'running' }
  | { status: 'done'; result: TourResult; provenance: string; source: TraceSource }
  | { status: 'failed'; message: string };

/** A live request the tour sent and waits for: done when the store goes idle again after it started. */
interface Pending {
  index: number;
  kind: 'run' | 'sweep';
  tracesBefore: readonly TraceDocument[];
  sweepBefore: SweepDocument | null;
  sawActive: boolean;
}

interface Props {
  /** 1-based. */
  step: number;
  onStep: (step: number) => void;
  onClose: () => void;
  /** Whether a run sent now would reach a Redis (backend connected, Redis up). */
  live: boolean;
  /** "Redis 7.0.15 · 127.0.0.1:6379", for a live result's provenance. */
  liveWhere: string;
  store: RunStore;
  sweepStore: SweepStore;
  runs: RunSnapshot;
  sweeps: SweepSnapshot;
  onView: (view: ViewChoice) => void;
  /** The backend's Redis is a node of a cluster: the cluster step runs live, the others show their recordings. */
  cluster?: boolean;
}

/** Why a step cannot run live against this Redis (a cluster step on a single Redis, or the reverse), or null. */
export function tourMismatch(step: TourStep, cluster: boolean): string | null {
  if (step.cluster && !cluster) return 'This step needs a Redis Cluster, and this Redis is a single one: it shows the step’s recording (npm start -- --cluster runs it live).';
  if (!step.cluster && cluster) return 'This step runs against a single Redis, and this Redis is a node of a cluster: it shows the step’s recording.';
  return null;
}

export function TourView({ step, onStep, onClose, live, liveWhere, store, sweepStore, runs, sweeps, onView, cluster = false }: Props) {
  const index = step - 1;
  const current = TOUR_STEPS[index]!;
  const [states, setStates] = useState<ReadonlyMap<number, StepState>>(new Map());
  const pending = useRef<Pending | null>(null);
  const setState = useCallback((i: number, s: StepState) => setStates((prev) => new Map(prev).set(i, s)), []);

  // A live request finishes when its store is idle again after having been busy.
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    const busy = p.kind === 'run' ? runs.active !== null : sweeps.active !== null;
    if (busy) {
      p.sawActive = true;
      return;
    }
    if (!p.sawActive) return;
    pending.current = null;
    if (p.kind === 'run' && runs.traces !== p.tracesBefore && runs.tracesSource === 'live' && runs.traces.length > 0) {
      setState(p.index, { status: 'done', result: { traces: runs.traces, sweep: null }, provenance: `Live run, ${liveWhere}`, source: 'live' });
    } else if (p.kind === 'sweep' && sweeps.doc && sweeps.doc !== p.sweepBefore && sweeps.source === 'live') {
      setState(p.index, { status: 'done', result: { traces: [], sweep: sweeps.doc }, provenance: `Live sweep, ${liveWhere}`, source: 'live' });
    } else {
      const why = (p.kind === 'run' ? runs.message : sweeps.message)?.text;
      setState(p.index, { status: 'failed', message: why ?? 'The run did not finish.' });
    }
  }, [runs, sweeps, liveWhere, setState]);

  const loadRecorded = useCallback(async (i: number, s: TourStep) => {
    setState(i, { status: 'running' });
    try {
      const { recording, result } = await loadTourRecording(s.id);
      const view = showLoaded(result, 'url', store, sweepStore);
      if (view) onView(view);
      if (result.errors.length > 0) throw new Error(result.errors.join(' '));
      setState(i, { status: 'done', result: { traces: result.docs, sweep: result.sweeps[0] ?? null }, provenance: provenanceText(recording), source: 'url' });
    } catch (error) {
      setState(i, { status: 'failed', message: `The recording could not be loaded: ${(error as Error).message}` });
    }
  }, [store, sweepStore, onView, setState]);

  const runStep = useCallback((i: number) => {
    const s = TOUR_STEPS[i]!;
    if (!live || tourMismatch(s, cluster)) {
      void loadRecorded(i, s);
      return;
    }
    const { preset } = s;
    onView(preset.kind === 'sweep' ? 'sweep' : 'run');
    const sent = preset.kind === 'sweep' ? sweepStore.run(preset.spec) : store.run(preset.spec);
    if (!sent) {
      setState(i, { status: 'failed', message: 'Another run or sweep is in progress; wait for it, then run this step.' });
      return;
    }
    pending.current = { index: i, kind: preset.kind, tracesBefore: runs.traces, sweepBefore: sweeps.doc, sawActive: false };
    setState(i, { status: 'running' });
  }, [live, cluster, loadRecorded, onView, store, sweepStore, runs.traces, sweeps.doc, setState]);

  /** Shows a step's earlier result again when the presenter comes back to it. */
  const goTo = useCallback((n: number) => {
    const target = Math.min(TOUR_STEPS.length, Math.max(1, n));
    const s = states.get(target - 1);
    if (s?.status === 'done' && !pending.current) {
      if (s.result.sweep) {
        sweepStore.show(s.result.sweep, s.source);
        onView('sweep');
      } else {
        store.showTraces(s.result.traces, s.source);
        onView('run');
      }
    }
    onStep(target);
  }, [states, store, sweepStore, onView, onStep]);

  const state = states.get(index);
  const running = state?.status === 'running';
  const primary = useCallback(() => {
    if (running) return;
    if (state?.status === 'done') {
      if (step < TOUR_STEPS.length) goTo(step + 1);
    } else runStep(index);
  }, [running, state, step, index, goTo, runStep]);

  // The clicker: PageDown / PageUp only, in the capture phase, so nothing else on the page acts on them.
  const keys = useRef({ primary, back: () => goTo(step - 1) });
  keys.current = { primary, back: () => goTo(step - 1) };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'PageDown' && e.key !== 'PageUp') return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.repeat) return;
      if (e.key === 'PageDown') keys.current.primary();
      else keys.current.back();
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, []);

  const verdict = state?.status === 'done' ? current.verdict(state.result) : null;
  const mismatch = live ? tourMismatch(current, cluster) : null;
  const liveHere = live && !mismatch;
  return (
    <section className="tour" aria-label="Guided tour" data-testid="tour" data-step={step} data-step-state={state?.status ?? 'idle'}>
      <div className="tour-main">
        <div className="tour-head">
          <p className="tour-count">
            Step {step} of {TOUR_STEPS.length}
          </p>
          <h2 className="tour-title" data-testid="tour-title">{current.title}</h2>
          <button type="button" className="link-button tour-close" onClick={onClose} aria-label="Close the tour">
            ×
          </button>
        </div>
        <p className="tour-text">
          {current.text} <span className="tour-source">— {current.source}</span>
        </p>
        <div className="tour-actions">
          <button type="button" className="button" onClick={() => goTo(step - 1)} disabled={step <= 1} title="Previous step (PageUp)">
            ← Previous
          </button>
          <button type="button" className="button primary" onClick={() => runStep(index)} disabled={running} data-testid="tour-run">
            {running ? 'Running…' : !liveHere ? (state?.status === 'done' ? 'Reload the recording' : 'Show the recording') : state?.status === 'done' ? 'Run again' : 'Run this step'}
          </button>
          <button type="button" className="button" onClick={() => goTo(step + 1)} disabled={step >= TOUR_STEPS.length} title="Next step (PageDown once this step has run)">
            Next →
          </button>
          <span className="tour-hint">PageDown: {state?.status === 'done' ? 'next step' : 'run this step'} · PageUp: back</span>
        </div>
        {mismatch && (
          <p className="tour-hint" data-testid="tour-mismatch">
            {mismatch}
          </p>
        )}
        {state?.status === 'failed' && (
          <p className="tour-failed" role="alert">
            {state.message}
          </p>
        )}
      </div>
      {state?.status === 'done' && (
        <div className="tour-verdict" data-testid="tour-verdict" role="status">
          {verdict ? (
            <>
              <p className="tour-headline" data-testid="tour-headline">{verdict.headline}</p>
              <ul>
                {verdict.lines.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            </>
          ) : (
            <p>This result does not carry what the step measures (a mode or a probe is missing).</p>
          )}
          <p className="tour-provenance" data-testid="tour-provenance">{state.provenance}</p>
        </div>
      )}
    </section>
  );
}
