// The link's stored= key follows the runs on screen: the ids the backend gave the runs shown (their
// run-stored messages, or the link that opened them), in their order; none when no run on screen is
// kept. Paused while the page is still opening a link (its runs not shown yet: the link keeps its ids)
// and while following a presenter (whose runs this page does not hold).
import { useEffect } from 'react';
import type { RunSnapshot } from '../../live/run-store.ts';
import { storedIdsOnScreen } from '../../state/stored-runs.ts';
import type { PageUrl } from '../../url/page-url.ts';

export function useStoredLink(url: PageUrl, runs: Pick<RunSnapshot, 'traces' | 'stored'>, paused: boolean): string[] {
  const ids = storedIdsOnScreen(runs);
  const key = ids.join('.');
  useEffect(() => {
    if (!paused) url.update({ stored: key ? key.split('.') : [] });
  }, [url, key, paused]);
  return ids;
}
