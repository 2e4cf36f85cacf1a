// How a view's state follows the URL: it starts from the page store's link (url/page-url.ts) and, each
// time the URL is navigated (edited, back, forward, changed by a script), adopts the new link — during
// render, React's way to reset state from outside, so nothing is drawn from the old state in between.
// The view tells the store its changes itself (PageUrl.update); the store's own writes are no navigation.
import { useState, useSyncExternalStore } from 'react';
import type { PageLink } from '../../url/page-link.ts';
import type { PageUrl } from '../../url/page-url.ts';

/** No URL (a view rendered on its own): nothing is ever navigated. */
const NONE = { subscribe: () => () => {}, getNavigation: () => null };

/** Calls `adopt` with the new link during the first render after each navigation. */
export function useNavigation(url: PageUrl | undefined, adopt: (link: PageLink) => void): void {
  const navigated = useSyncExternalStore(url?.subscribe ?? NONE.subscribe, url?.getNavigation ?? NONE.getNavigation);
  const [seen, setSeen] = useState(navigated);
  if (seen !== navigated) {
    setSeen(navigated);
    if (navigated) adopt(navigated);
  }
}
