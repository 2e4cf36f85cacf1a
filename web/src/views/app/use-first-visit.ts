// The first screen, for a page opened with nothing to show (main.tsx's `openedEmpty`: no ?trace=, not
// following, nothing put back from history) on the default form: at once, the default run's recording,
// labelled as recorded (state/first-visit.ts); and once the backend says its Redis is Pipescope's own
// private one, the default run itself, measured here, which replaces the recording as it streams in.
// Never run by itself against a user's own Redis (--redis-url): the recording stays, and the page asks
// for Run. Nothing happens on a link that named another form, while the tour is open, on a follower's
// page, or when this browser's localStorage says "off" (the e2e tests' setting, e2e/browser.ts).
import { useEffect, useRef, useState } from 'react';
import type { ChannelStatus } from '../../live/live-channel.ts';
import type { RunSnapshot, RunStore } from '../../live/run-store.ts';
import { firstVisitOff, loadRecordedFirstRun, type RecordedFirstRun } from '../../state/first-visit.ts';
import { validateRunForm, type RunFormState } from '../../state/run-form-state.ts';
import { isDefaultRunForm } from '../../url/run-link.ts';

interface Options {
  /** Resolves true when the page opened with nothing to show; null: never a first screen (static site, tests). */
  openedEmpty: Promise<boolean> | null;
  form: RunFormState;
  runs: RunSnapshot;
  store: RunStore;
  status: ChannelStatus;
  /** The single-run view is shown, nobody is followed, the tour is closed, no sweep runs: a run may start by itself. */
  mayRun: boolean;
}

export interface FirstVisit {
  /** The recording to show while no run is on screen; null once one is (or when there is none). */
  recorded: RecordedFirstRun | null;
  /** The default run was started by itself on the private Redis (so the note says "measuring it here"). */
  autoRun: boolean;
}

export function useFirstVisit({ openedEmpty, form, runs, store, status, mayRun }: Options): FirstVisit {
  const [recorded, setRecorded] = useState<RecordedFirstRun | null>(null);
  const [over, setOver] = useState(false);
  const [autoRun, setAutoRun] = useState(false);
  const formRef = useRef(form);
  formRef.current = form;

  // Eligible once the page knows it opened empty, on the default form: then the recording loads.
  useEffect(() => {
    if (!openedEmpty || firstVisitOff()) return;
    let live = true;
    void openedEmpty.then(async (empty) => {
      if (!empty || !isDefaultRunForm(formRef.current) || store.getSnapshot().traces.length > 0) return;
      const loaded = await loadRecordedFirstRun();
      if (live && loaded) setRecorded(loaded);
    });
    return () => {
      live = false;
    };
  }, [openedEmpty, store]);

  // A run on screen ends the first screen for good (a later empty screen is the user's doing).
  const onScreen = runs.traces.length > 0;
  useEffect(() => {
    if (onScreen && recorded) setOver(true);
  }, [onScreen, recorded]);

  // The default run, once, on Pipescope's private Redis only.
  const { connection, redis } = status;
  const ready = connection.status === 'open' && redis !== null && redis.up && redis.embedded;
  useEffect(() => {
    if (!recorded || over || autoRun || !ready || !mayRun || runs.active || onScreen || !isDefaultRunForm(form)) return;
    const result = validateRunForm(form);
    if (result.ok && store.run(result.spec)) setAutoRun(true);
  }, [recorded, over, autoRun, ready, mayRun, runs.active, onScreen, form, store]);

  return { recorded: over ? null : recorded, autoRun };
}
