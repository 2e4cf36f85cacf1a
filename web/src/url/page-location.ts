// The browser's address bar, as the page store (page-url.ts) uses it: read the hash and the query,
// replace the hash, hear navigations. The only code of the app that touches window.location's hash or
// the History API; tests hand the store an address of their own (test-support/memory-location.ts).

export interface PageLocation {
  /** '#…', or '' when there is none. */
  hash(): string;
  /** '?…', or ''. */
  search(): string;
  /** The whole address, as "Copy link" copies it. */
  href(): string;
  /** Replaces the hash in place: no history entry, no hashchange event. */
  replaceHash(hash: string): void;
  /** Calls back when the hash is navigated: edited or followed (hashchange), back or forward (popstate). */
  listen(onNavigate: () => void): () => void;
}

export const browserLocation: PageLocation = {
  hash: () => window.location.hash,
  search: () => window.location.search,
  href: () => window.location.href,
  replaceHash: (hash) => {
    const { pathname, search } = window.location;
    history.replaceState(history.state, '', `${pathname}${search}${hash}`);
  },
  listen: (onNavigate) => {
    window.addEventListener('hashchange', onNavigate);
    window.addEventListener('popstate', onNavigate);
    return () => {
      window.removeEventListener('hashchange', onNavigate);
      window.removeEventListener('popstate', onNavigate);
    };
  },
};
