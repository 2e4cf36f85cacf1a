// Presenter mode (the class `presenter` on <html>: large type, settings folded away) and the guided tour's
// step, both display keys of the page's link (present=1, tour=N): they start from it, a navigation sets
// them, and each change is told to the page store.
import { useCallback, useEffect, useState } from 'react';
import type { PageUrl } from '../../url/page-url.ts';
import { useNavigation } from '../app/use-navigation.ts';

export interface Presentation {
  present: boolean;
  setPresent: (present: boolean) => void;
  /** The tour's step, 1-based; null: closed. */
  tourStep: number | null;
  setTourStep: (step: number | null) => void;
}

export function usePresentation(url: PageUrl): Presentation {
  const [present, setPresentState] = useState(() => url.link.display.present);
  const [tourStep, setTourStepState] = useState(() => url.link.display.tour);
  useNavigation(url, ({ display }) => {
    setPresentState(display.present);
    setTourStepState(display.tour);
  });
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', present);
  }, [present]);
  const setPresent = useCallback((on: boolean) => {
    setPresentState(on);
    url.update({ display: { present: on } });
  }, [url]);
  const setTourStep = useCallback((step: number | null) => {
    setTourStepState(step);
    url.update({ display: { tour: step } });
  }, [url]);
  return { present, setPresent, tourStep, setTourStep };
}
