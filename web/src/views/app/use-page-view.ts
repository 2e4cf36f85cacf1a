// Which view the page shows (the tabs; the link's view=), and which views were ever shown: the sweep, the
// gallery and the history are mounted the first time they are shown (a page that only draws runs need not
// build them), then kept, hidden, so each keeps its form, results or picks while another is on screen.
// The view starts from the link, a navigation sets it, each change is told to the page store; the ?trace=
// documents, once loaded, may ask for a view of their own.
import { useCallback, useEffect, useState } from 'react';
import type { ViewChoice } from '../../state/page-choices.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { useNavigation } from './use-navigation.ts';

export interface PageView {
  view: ViewChoice;
  setView: (view: ViewChoice) => void;
  /** Whether a view was ever shown (so is mounted). */
  mounted: (view: ViewChoice) => boolean;
  /** While the ?trace= documents load. */
  urlLoading: boolean;
}

export function usePageView(url: PageUrl, urlLoad: Promise<ViewChoice | null> | null): PageView {
  const [view, setViewState] = useState<ViewChoice>(() => url.link.view);
  useNavigation(url, (link) => setViewState(link.view));
  const setView = useCallback((next: ViewChoice) => {
    setViewState(next);
    url.update({ view: next });
  }, [url]);

  const [shownOnce, setShownOnce] = useState<ReadonlySet<ViewChoice>>(() => new Set([view]));
  if (!shownOnce.has(view)) setShownOnce(new Set([...shownOnce, view]));

  const [urlLoading, setUrlLoading] = useState(urlLoad !== null);
  useEffect(() => {
    let live = true;
    void urlLoad?.then((nextView) => {
      if (live && nextView) setView(nextView);
    }).finally(() => live && setUrlLoading(false));
    return () => {
      live = false;
    };
  }, [urlLoad, setView]);

  return { view, setView, mounted: (v) => shownOnce.has(v), urlLoading };
}
