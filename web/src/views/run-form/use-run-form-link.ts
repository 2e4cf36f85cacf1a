// The run form as typed, the diagrams' time scale and whether the form's "More options" are unfolded,
// kept in the page's link (url/run-link.ts): they start from it, a link navigated to on the single-run
// view sets them, and each change is told to the page store, which writes the last good value of a
// half-typed number (runLinkOf). The Redis picked (target=) is kept there the same way.
import { useCallback, useState } from 'react';
import type { ScaleChoice } from '../../state/page-choices.ts';
import type { TargetName } from '../../../../trace/protocol/live-protocol.ts';
import type { RunFormState } from '../../state/run-form-state.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { runFormOf, runLinkOf } from '../../url/run-link.ts';
import { useNavigation } from '../app/use-navigation.ts';

export interface RunFormLink {
  form: RunFormState;
  setForm: (form: RunFormState) => void;
  scale: ScaleChoice;
  setScale: (scale: ScaleChoice) => void;
  /** The form's rarer fields unfolded (options=1). */
  moreOptions: boolean;
  setMoreOptions: (open: boolean) => void;
  /** The private Redis picked (null: the backend's own). */
  target: TargetName | null;
  setTarget: (target: TargetName | null) => void;
}

export function useRunFormLink(url: PageUrl): RunFormLink {
  const [form, setFormState] = useState<RunFormState>(() => runFormOf(url.link.run));
  const [scale, setScaleState] = useState<ScaleChoice>(() => url.link.run.scale);
  const [moreOptions, setMoreOptionsState] = useState(() => url.link.run.options);
  const [target, setTargetState] = useState(() => url.link.run.target);
  useNavigation(url, (link) => {
    if (link.view !== 'run') return; // another view's link leaves the form as it is
    setFormState(runFormOf(link.run));
    setScaleState(link.run.scale);
    setMoreOptionsState(link.run.options);
    setTargetState(link.run.target);
  });
  const setForm = useCallback((next: RunFormState) => {
    setFormState(next);
    url.update({ run: runLinkOf(next, url.link.run.scale, url.link.run) });
  }, [url]);
  const setScale = useCallback((next: ScaleChoice) => {
    setScaleState(next);
    url.update({ run: { ...url.link.run, scale: next } });
  }, [url]);
  const setMoreOptions = useCallback((open: boolean) => {
    setMoreOptionsState(open);
    url.update({ run: { ...url.link.run, options: open } });
  }, [url]);
  const setTarget = useCallback((next: TargetName | null) => {
    setTargetState(next);
    url.update({ run: { ...url.link.run, target: next } });
  }, [url]);
  return { form, setForm, scale, setScale, moreOptions, setMoreOptions, target, setTarget };
}
