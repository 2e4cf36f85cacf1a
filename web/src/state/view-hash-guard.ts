// A view that mirrors its form into the URL hash (the run form, the depth sweep) must not write a stale
// form over a hash someone else just set. Two windows let that happen at load, when the URL changes (a
// link opened in the same tab, a test's page.goto) between React's first render and its effects:
// - the hashchange event is queued but not yet dispatched, and the view's writer runs first;
// - or the event was dispatched before the view's listener was added, so the view never hears it.
// Either way the writer would put back the form it read at first render. The guard remembers the view's
// part of the hash as the view last read or wrote it; when the URL's differs, the change came from outside
// and the view adopts it instead of writing. Display keys (t=, zoom=, theme=, …) are not the view's part,
// so their writers never look like an outside change.
import { replaceViewHash } from './hash-fields.ts';

/** The view's part of a hash in one canonical text, or null when the hash shows another view. */
export type ViewPartOf = (hash: string) => string | null;

export class ViewHashGuard {
  private known: string | null;

  constructor(private readonly viewPartOf: ViewPartOf) {
    this.known = viewPartOf(window.location.hash);
  }

  /** The view's state now reflects the URL as it stands (read on load or on hashchange). */
  seen(): void {
    this.known = this.viewPartOf(window.location.hash);
  }

  /** True when the URL shows this view with a part the view has neither read nor written. */
  changedOutside(): boolean {
    const now = this.viewPartOf(window.location.hash);
    return now !== null && now !== this.known;
  }

  /** Writes the view's hash (keeping the display keys) and remembers it. */
  write(viewHash: string): void {
    replaceViewHash(viewHash);
    this.seen();
  }
}
