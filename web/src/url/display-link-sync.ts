// Keeps the diagrams' zoom window and the playback clock and the URL's display keys (display-link.ts) in
// step, both ways, so the page's URL is always a link to what is on screen:
// - in: on load and on every navigation (a user editing the URL, back, forward), zoom=, t= and speed= are
//   applied — the zoom once the diagrams' timeline is known (setDomain: the first traces shown), the
//   playhead once the clock has a timeline to seek in (endUs > 0). Until then they wait, and nothing
//   overwrites them in the link.
// - out: as the user zooms, pans or moves the playhead, the keys are set in the page store (page-url.ts),
//   whose URL writes of them are throttled; the playhead only while paused (a seek, a step, the end), never
//   each frame while playing. Reset zoom removes zoom=.
// Joins the TimeZoomSync as a member to hear every zoom change; owns no DOM.
import { DEFAULT_PLAYBACK_SPEED, type PlaybackClock } from '../interaction/playback-clock.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import type { TimeZoom } from '../layout/time-scale-layout.ts';
import { windowOfZoom, zoomOfWindow } from '../layout/zoom-window.ts';
import type { TimeWindow } from '../state/link-values.ts';
import type { DisplayLink } from './display-link.ts';
import type { PageUrl } from './page-url.ts';

type Patch = Partial<Pick<DisplayLink, 'zoom' | 't' | 'speed'>>;

export class DisplayLinkSync implements ZoomMember {
  /** The shared timeline's end, µs (the longest run shown); null while no diagrams are shown. */
  private domainEndUs: number | null = null;
  /** A window (or null: no zoom) from the URL not applied yet; undefined: none waiting. */
  private pendingZoom: TimeWindow | null | undefined = undefined;
  /** A playhead (or null: no playback) from the URL not applied yet; undefined: none waiting. */
  private pendingT: number | null | undefined = undefined;
  /** Between start and stop. Before start nothing is written: the link is read first (the diagrams may know their timeline sooner). */
  private started = false;

  constructor(
    private readonly url: PageUrl,
    private readonly zoomSync: TimeZoomSync,
    private readonly playback: PlaybackClock,
  ) {}

  /** Applies the link now and keeps listening; returns the stop function (an effect's clean-up). */
  start(): () => void {
    this.started = true;
    this.apply(this.url.link.display, false);
    if (this.domainEndUs !== null && this.pendingZoom === undefined) this.schedule({ zoom: this.windowOf(this.zoomSync.zoom) });
    this.zoomSync.join(this);
    const stopClock = this.playback.subscribe(this.onClock);
    const stopUrl = this.url.subscribe(() => this.apply(this.url.getNavigation().display, true));
    return () => {
      this.started = false;
      stopUrl();
      stopClock();
      this.zoomSync.leave(this);
    };
  }

  /**
   * Applies a link's display keys. On load (`absentResets` false) a missing key leaves things as they
   * are; after a navigation a missing key means its default: no zoom, no playback.
   */
  apply(p: DisplayLink, absentResets: boolean): void {
    if (p.zoom !== null || absentResets) this.pendingZoom = p.zoom;
    if (p.t !== null || absentResets) this.pendingT = p.t;
    if (p.speed !== null || absentResets) this.playback.setSpeed(p.speed ?? DEFAULT_PLAYBACK_SPEED);
    this.applyPending();
  }

  /** The diagrams' shared timeline (µs, the longest run shown), or null when none is shown. */
  setDomain(endUs: number | null): void {
    if (endUs === this.domainEndUs) return;
    this.domainEndUs = endUs;
    if (endUs === null || !this.started) return;
    this.applyPending();
    // The zoom stays in px: a new timeline length is a new window.
    if (this.pendingZoom === undefined) this.schedule({ zoom: this.windowOf(this.zoomSync.zoom) });
  }

  /** ZoomMember: a user's wheel, drag, key or reset, in any diagram. */
  applyZoom(zoom: TimeZoom): void {
    if (!this.started || this.pendingZoom !== undefined || this.domainEndUs === null) return;
    this.schedule({ zoom: this.windowOf(zoom) });
  }

  private windowOf(zoom: TimeZoom): TimeWindow | null {
    return this.domainEndUs === null ? null : windowOfZoom(zoom, this.domainEndUs);
  }

  private applyPending(): void {
    if (this.pendingZoom !== undefined && this.domainEndUs !== null) {
      const zoom = zoomOfWindow(this.pendingZoom, this.domainEndUs);
      this.pendingZoom = undefined;
      this.zoomSync.set(zoom, this);
      // The window as applied: clipped to the timeline, or widened to the deepest zoom.
      this.schedule({ zoom: this.windowOf(zoom) });
    }
    if (this.pendingT !== undefined && (this.pendingT === null || this.playback.getSnapshot().endUs > 0)) {
      const t = this.pendingT;
      this.pendingT = undefined;
      this.playback.seek(t);
    }
  }

  private readonly onClock = (): void => {
    this.applyPending();
    const { positionUs, playing, speed } = this.playback.getSnapshot();
    const patch: Patch = { speed: speed === DEFAULT_PLAYBACK_SPEED ? null : speed };
    if (!playing && this.pendingT === undefined) patch.t = positionUs;
    this.schedule(patch);
  };

  /**
   * Writes the display state now, the playhead included even while playing: for "Copy link", so the link
   * holds what is on screen this instant rather than what the throttle last wrote.
   */
  writeNow(): void {
    const patch: Patch = {};
    if (this.domainEndUs !== null && this.pendingZoom === undefined) patch.zoom = this.windowOf(this.zoomSync.zoom);
    if (this.pendingT === undefined) patch.t = this.playback.getSnapshot().positionUs;
    this.url.update({ display: patch });
  }

  /** Sets keys in the link; the store writes them at most once per its interval. */
  private schedule(patch: Patch): void {
    this.url.update({ display: patch }, 'throttled');
  }
}
