// Follow mode's display state, both ways. The presenter's page sends what its attendees should see
// (DisplayBroadcaster): the playhead (position, playing, speed), the view, the diagrams' scale and the
// display keys of its URL (zoom, tour step, …). An update goes out when something changes, at most 10
// a second; while playing, the position alone (which moves every frame) goes out once a second, since each
// follower's clock plays on by itself in between. The attendee's page applies it (DisplayMirror): its
// PlaybackClock set to match (again when its traces arrive and the timeline's end moves), the view and
// scale switched, the zoom and tour keys written to its URL. Theme and presenter mode stay each reader's own.
// The URL itself is the page store's (url/page-url.ts): this module is handed the keys to send and a
// function that writes the mirrored ones (views/follow/use-follow-mode.ts wires both).
import { DISPLAY_KEY_PATTERN, MAX_DISPLAY_KEYS, MAX_DISPLAY_VALUE_CHARS, type FollowDisplay } from '../../../trace/protocol/follow-protocol.ts';
import type { PlaybackClock, PlaybackSnapshot } from '../interaction/playback-clock.ts';
import type { ScaleChoice, ViewChoice } from './page-choices.ts';

/** Least wall-clock time between two updates (ms): 10 a second, as the backend relays. */
export const MIN_UPDATE_MS = 100;
/** While playing, least time between updates that only move the position (ms). */
export const PLAYING_UPDATE_MS = 1000;
/** Display keys an attendee's page takes from the presenter's; the playhead comes with the clock itself. */
export const MIRRORED_KEYS: readonly string[] = ['zoom', 'tour'];
/** How often the presenter's display keys are looked at for a change without a clock change (ms). */
const HASH_POLL_MS = 500;

export interface PageDisplay {
  view: ViewChoice;
  scale: ScaleChoice;
}

/** The display keys of a page's URL, as its link writes them (key → value, in the link's order). */
export type DisplayKeys = Readonly<Record<string, string>>;

/** The display state to send: the clock's snapshot, the page's view and scale, the URL's display keys. */
export function displayOf(clock: PlaybackSnapshot, page: PageDisplay, displayKeys: DisplayKeys): FollowDisplay {
  const keys: Record<string, string> = {};
  for (const [key, value] of Object.entries(displayKeys)) {
    if (!DISPLAY_KEY_PATTERN.test(key) || value.length > MAX_DISPLAY_VALUE_CHARS) continue;
    if (Object.keys(keys).length < MAX_DISPLAY_KEYS) keys[key] = value;
  }
  const speed = clock.speed > 0 && clock.speed <= 1 ? clock.speed : 1;
  // The history and the observed clients are the presenter's own; an attendee sees the runs view.
  return { view: page.view === 'history' || page.view === 'observe' ? 'run' : page.view, scale: page.scale, positionUs: clock.positionUs, playing: clock.playing, speed, keys };
}

/** Only the position differs (while playing, that is every frame). */
function onlyPositionMoved(a: FollowDisplay, b: FollowDisplay): boolean {
  return JSON.stringify({ ...a, positionUs: 0 }) === JSON.stringify({ ...b, positionUs: 0 });
}

export class DisplayBroadcaster {
  private page: PageDisplay = { view: 'run', scale: 'shared' };
  private last: FollowDisplay | null = null;
  private lastAtMs = -Infinity;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly clock: PlaybackClock,
    /** Sends one update; false when it could not (not sharing): then it is sent again later. */
    private readonly send: (display: FollowDisplay) => boolean,
    /** The display keys of the page's URL as it stands now. */
    private readonly keys: () => DisplayKeys,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Starts watching the clock and the URL; returns the function that stops it. */
  start(): () => void {
    const stopClock = this.clock.subscribe(() => this.consider());
    const poll = setInterval(() => this.consider(), HASH_POLL_MS);
    return () => {
      stopClock();
      clearInterval(poll);
      if (this.timer !== null) clearTimeout(this.timer);
      this.timer = null;
    };
  }

  setPage(page: PageDisplay): void {
    this.page = page;
    this.consider();
  }

  /** Sends the state now whatever was sent before (sharing started; a follower joined). */
  resend(): void {
    this.last = null;
    this.lastAtMs = -Infinity;
    this.consider();
  }

  private consider(): void {
    const display = displayOf(this.clock.getSnapshot(), this.page, this.keys());
    const last = this.last;
    if (last && JSON.stringify(last) === JSON.stringify(display)) return;
    const gap = last && display.playing && last.playing && onlyPositionMoved(last, display) ? PLAYING_UPDATE_MS : MIN_UPDATE_MS;
    const wait = this.lastAtMs + gap - this.nowMs();
    if (wait > 0) {
      if (this.timer === null) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.consider();
        }, wait);
      }
      return;
    }
    if (!this.send(display)) return;
    this.last = display;
    this.lastAtMs = this.nowMs();
  }
}

export class DisplayMirror {
  private target: FollowDisplay | null = null;
  private endUs = -1;

  constructor(
    private readonly clock: PlaybackClock,
    private readonly onPage: (page: PageDisplay) => void,
    /** Sets the mirrored display keys in the page's URL (a value, or null: none). */
    private readonly writeKeys: (keys: Readonly<Record<string, string | null>>) => void,
  ) {}

  /** Re-applies the presenter's state when the timeline's end moves (traces arrived); returns the stop function. */
  start(): () => void {
    return this.clock.subscribe(() => {
      const { endUs } = this.clock.getSnapshot();
      if (endUs === this.endUs) return;
      this.endUs = endUs;
      if (this.target) this.applyClock(this.target);
    });
  }

  apply(display: FollowDisplay): void {
    this.target = display;
    this.applyClock(display);
    this.onPage({ view: display.view, scale: display.scale });
    this.writeKeys(Object.fromEntries(MIRRORED_KEYS.map((key) => [key, display.keys[key] ?? null])));
  }

  private applyClock(display: FollowDisplay): void {
    const clock = this.clock;
    if (clock.getSnapshot().speed !== display.speed) clock.setSpeed(display.speed);
    if (!display.playing && clock.getSnapshot().playing) clock.pause();
    clock.seek(display.positionUs);
    if (display.playing && !clock.getSnapshot().playing) clock.play();
  }
}
