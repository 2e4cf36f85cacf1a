// The link's stored= key follows the runs on screen: the ids the backend gave the runs shown (their
// run-stored messages, or the link that opened them), in their order; none when no run on screen is
// kept. Paused while the page is still opening a link (its runs not shown yet: the link keeps its ids)
// and while following a presenter (whose runs this page does not hold). A link navigated to (pasted into
// the address bar, back, forward) that names other runs opens them (`open`), as opening the page would.
import { useEffect, useRef } from 'react';
import type { RunSnapshot } from '../../live/run-store.ts';
import { storedIdsOnScreen } from '../../state/stored-runs.ts';
import type { PageUrl } from '../../url/page-url.ts';

export function useStoredLink(
  url: PageUrl,
  runs: Pick<RunSnapshot, 'traces' | 'stored'>,
  paused: boolean,
  open?: (ids: readonly string[]) => void,
): string[] {
  const ids = storedIdsOnScreen(runs);
  const key = ids.join('.');
  useEffect(() => {
    if (!paused) url.update({ stored: key ? key.split('.') : [] });
  }, [url, key, paused]);
  const onScreen = useRef(key);
  onScreen.current = key;
  useEffect(() => {
    if (!open || paused) return;
    return url.subscribe(() => {
      const named = url.getNavigation().stored ?? [];
      const sorted = (list: readonly string[]) => [...list].sort().join('.');
      if (named.length > 0 && sorted(named) !== sorted(onScreen.current ? onScreen.current.split('.') : [])) open(named);
    });
  }, [url, open, paused]);
  return ids;
}
