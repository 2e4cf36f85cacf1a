// Keeps the display state and the URL hash in step, both ways, so the page's URL is always a link to what
// is on screen (display-hash-params.ts has the keys):
// - in: on load and on every hashchange (a user editing the URL), zoom=, t= and speed= are applied — the
//   zoom once the diagrams' timeline is known (setDomain: the first traces shown), the playhead once the
//   clock has a timeline to seek in (endUs > 0). Until then they wait, and nothing overwrites them.
// - out: as the user zooms, pans or moves the playhead, the keys are rewritten with replaceState (no
//   history entry), at most once per intervalMs; the playhead only while paused (a seek, a step, the end),
//   never each frame while playing. Reset zoom removes zoom=.
// Joins the TimeZoomSync as a member to hear every zoom change; owns no DOM.
import type { PlaybackClock } from '../interaction/playback-clock.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import type { TimeZoom } from '../layout/time-scale-layout.ts';
import { windowOfZoom, zoomOfWindow } from '../layout/zoom-window.ts';
import { DEFAULT_DISPLAY_PARAMS, formatTimeWindow, formatUsField, parseDisplayHashParams, type TimeWindow } from './display-hash-params.ts';
import { hashField, writeHashFields } from './hash-fields.ts';

/** Most URL writes per second: 4. */
export const DISPLAY_HASH_INTERVAL_MS = 250;

type Patch = Record<string, string | null>;

export class DisplayHashSync implements ZoomMember {
  /** The shared timeline's end, µs (the longest run shown); null while no diagrams are shown. */
  private domainEndUs: number | null = null;
  /** A window (or null: no zoom) from the URL not applied yet; undefined: none waiting. */
  private pendingZoom: TimeWindow | null | undefined = undefined;
  /** A playhead (or null: no playback) from the URL not applied yet; undefined: none waiting. */
  private pendingT: number | null | undefined = undefined;
  private patch: Patch = {};
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastWriteMs = -Infinity;

  constructor(
    private readonly zoomSync: TimeZoomSync,
    private readonly playback: PlaybackClock,
    private readonly intervalMs = DISPLAY_HASH_INTERVAL_MS,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Reads the URL now and keeps listening; returns the stop function (an effect's clean-up). */
  start(): () => void {
    this.applyHash(window.location.hash, false);
    this.zoomSync.join(this);
    const unsubscribe = this.playback.subscribe(this.onClock);
    const onHashChange = () => this.applyHash(window.location.hash, true);
    window.addEventListener('hashchange', onHashChange);
    return () => {
      window.removeEventListener('hashchange', onHashChange);
      unsubscribe();
      this.zoomSync.leave(this);
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
      this.patch = {};
    };
  }

  /**
   * Applies the display keys of a hash. On load (`absentResets` false) a missing key leaves things as they
   * are; after a hashchange a missing key means its default: no zoom, no playback.
   */
  applyHash(hash: string, absentResets: boolean): void {
    const p = parseDisplayHashParams(hash);
    if (p.zoom !== null || absentResets) this.pendingZoom = p.zoom;
    if (p.t !== null || absentResets) this.pendingT = p.t;
    if (p.speed !== DEFAULT_DISPLAY_PARAMS.speed || absentResets) this.playback.setSpeed(p.speed);
    // Junk is tidied away, a speed between steps written as the step it snapped to.
    const tidy: Patch = {};
    if (p.zoom === null && hashField(hash, 'zoom') !== null) tidy['zoom'] = null;
    if (p.t === null && hashField(hash, 't') !== null) tidy['t'] = null;
    if (hashField(hash, 'speed') !== null) tidy['speed'] = p.speed === DEFAULT_DISPLAY_PARAMS.speed ? null : String(p.speed);
    if (Object.keys(tidy).length > 0) this.schedule(tidy);
    this.applyPending();
  }

  /** The diagrams' shared timeline (µs, the longest run shown), or null when none is shown. */
  setDomain(endUs: number | null): void {
    if (endUs === this.domainEndUs) return;
    this.domainEndUs = endUs;
    if (endUs === null) return;
    this.applyPending();
    // The zoom stays in px: a new timeline length is a new window.
    if (this.pendingZoom === undefined) this.schedule({ zoom: this.zoomField(this.zoomSync.zoom) });
  }

  /** ZoomMember: a user's wheel, drag, key or reset, in any diagram. */
  applyZoom(zoom: TimeZoom): void {
    if (this.pendingZoom !== undefined || this.domainEndUs === null) return;
    this.schedule({ zoom: this.zoomField(zoom) });
  }

  private zoomField(zoom: TimeZoom): string | null {
    const window = this.domainEndUs === null ? null : windowOfZoom(zoom, this.domainEndUs);
    return window ? formatTimeWindow(window) : null;
  }

  private applyPending(): void {
    if (this.pendingZoom !== undefined && this.domainEndUs !== null) {
      const zoom = zoomOfWindow(this.pendingZoom, this.domainEndUs);
      this.pendingZoom = undefined;
      this.zoomSync.set(zoom, this);
      // The window as applied: clipped to the timeline, or widened to the deepest zoom.
      this.schedule({ zoom: this.zoomField(zoom) });
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
    const patch: Patch = { speed: speed === DEFAULT_DISPLAY_PARAMS.speed ? null : String(speed) };
    if (!playing && this.pendingT === undefined) patch['t'] = positionUs === null ? null : formatUsField(positionUs);
    this.schedule(patch);
  };

  /**
   * Writes the display state now, the playhead included even while playing: for "Copy link", so the link
   * holds what is on screen this instant rather than what the throttle last wrote.
   */
  writeNow(): void {
    if (this.domainEndUs !== null && this.pendingZoom === undefined) this.patch['zoom'] = this.zoomField(this.zoomSync.zoom);
    if (this.pendingT === undefined) {
      const { positionUs } = this.playback.getSnapshot();
      this.patch['t'] = positionUs === null ? null : formatUsField(positionUs);
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.write();
  }

  /** Merges keys into the next write, which happens at most once per intervalMs. */
  private schedule(patch: Patch): void {
    Object.assign(this.patch, patch);
    if (this.timer !== null) return;
    const delay = Math.max(0, this.lastWriteMs + this.intervalMs - this.nowMs());
    this.timer = setTimeout(this.write, delay);
  }

  private readonly write = (): void => {
    this.timer = null;
    this.lastWriteMs = this.nowMs();
    const patch = this.patch;
    this.patch = {};
    writeHashFields(patch);
  };
}
