// The page's URL as one store: the link (page-link.ts) that the hash spells, with one writer. Features
// hold their own state (the forms, the playhead, the repeats picked) and tell the store what the link
// should now say (update); the store writes the whole link, in its one canonical order, with
// history.replaceState (no history entry, no hashchange). What the store did not write is a navigation —
// the user edited the URL or followed a #link (hashchange), went back or forward (popstate), or a script
// replaced it (no event: found before the store's next write, or when read() looks) — and is adopted:
// the link is read from the URL, written back canonical, and subscribers hear it (subscribe /
// getNavigation, for useSyncExternalStore), each adopting its part. Nothing else reads or writes the hash.
// Writes happen at once, or throttled: the playhead and zoom change every frame, so their writes go out
// at most once per intervalMs (the link's state changes at once; the URL follows).
import { browserLocation, type PageLocation } from './page-location.ts';
import { canonicalLink, formatLink, parseLink, patchedLink, type LinkPatch, type PageLink } from './page-link.ts';

/** Least time between two throttled writes, ms: at most 4 a second. */
export const THROTTLE_MS = 250;

export class PageUrl {
  private current: PageLink;
  /** The link as of the last navigation (or the page's opening): what subscribers adopt. */
  private navigated: PageLink;
  /** The hash as the store last read or wrote it; any other hash in the URL came from outside. */
  private known: string;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastThrottledMs = -Infinity;

  constructor(
    private readonly location: PageLocation = browserLocation,
    private readonly intervalMs = THROTTLE_MS,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.known = location.hash();
    this.current = parseLink(this.known);
    this.navigated = this.current;
  }

  /** The link as the store holds it (its latest changes included, whether written yet or not). */
  get link(): PageLink {
    return this.current;
  }

  /** The query ('?trace=…&follow=…', or ''): read once by main.tsx, never written. */
  get search(): string {
    return this.location.search();
  }

  /** Hears navigations (not the store's own writes); returns the unsubscribe. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The link as of the last navigation; a new object after each one. */
  readonly getNavigation = (): PageLink => this.navigated;

  /** Listens for navigations, adopts a URL changed since the store was made, and writes the link canonical. */
  start(): () => void {
    const stop = this.location.listen(() => this.read());
    this.read();
    this.write();
    return () => {
      stop();
      this.flush();
    };
  }

  /** The link as the URL holds it now: a change made outside the store is adopted first, as a navigation. */
  read(): PageLink {
    const hash = this.location.hash();
    if (hash !== this.known) {
      this.known = hash;
      this.current = parseLink(hash, this.current);
      this.navigated = this.current;
      this.write();
      for (const listener of [...this.listeners]) listener();
    }
    return this.current;
  }

  /**
   * Changes the link and writes it: `now`, or `throttled` (at most once per intervalMs; a write made
   * meanwhile takes the change along). A URL changed outside is adopted first, then the change applied.
   */
  update(patch: LinkPatch, when: 'now' | 'throttled' = 'now'): void {
    this.read();
    this.current = patchedLink(this.current, patch);
    if (when === 'now') this.write();
    else if (this.timer === null) this.timer = setTimeout(this.throttledWrite, Math.max(0, this.lastThrottledMs + this.intervalMs - this.nowMs()));
  }

  /** Writes a throttled change now, if one waits. */
  flush(): void {
    if (this.timer !== null) this.write();
  }

  /** The page's address as it stands this instant (read, and throttled changes written, first): the link to copy. */
  href(): string {
    this.read();
    this.flush();
    return this.location.href();
  }

  private readonly throttledWrite = (): void => {
    this.timer = null;
    this.lastThrottledMs = this.nowMs();
    this.read();
    this.write();
  };

  /** The one writer: the whole link, canonical, when the URL says something else. */
  private write(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.current = canonicalLink(this.current);
    const hash = formatLink(this.current);
    const now = this.location.hash();
    if (hash !== now && !(hash === '' && now === '#')) this.location.replaceHash(hash);
    this.known = this.location.hash();
  }
}
