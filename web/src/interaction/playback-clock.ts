// One playhead for every diagram on screen: where playback is (µs since t0 on the shared time axis),
// whether it is playing and how fast. Diagrams draw what happened up to the playhead; the playback bar,
// the keyboard, the URL (`t=`) and follow mode read and move this one clock. Outside React: views read it
// with useSyncExternalStore, painters subscribe. Invariants: 0 ≤ positionUs ≤ endUs when not null;
// null = no playback, the whole run drawn (the default). While playing, it advances once per frame by
// (wall-clock µs elapsed) × speed, and stops at endUs.
// Steps: the stops a step can land on (model/playback-events.ts) are handed in with setStops; ←/→ move to
// the previous/next one, `,`/`.` by one frame (FRAME_FRACTION of endUs: a fixed share of the whole
// timeline, so a frame is the same on every diagram whatever each one's zoom). With discrete playback
// (prefers-reduced-motion) playing jumps from stop to stop, one per DISCRETE_STEP_MS of wall time,
// instead of gliding.
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { lowerBound, upperBound } from '../base/sorted-search.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';

/** Trace µs per wall-clock µs, fastest first: real time down to 1/1000 (loopback events are µs apart). */
export const PLAYBACK_SPEEDS = [1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001] as const;
export const DEFAULT_PLAYBACK_SPEED = 0.001;

/** One frame (`,`/`.`) is this share of endUs. */
export const FRAME_FRACTION = 1 / 200;
/** Discrete playback (reduced motion): wall-clock ms between one stop and the next. */
export const DISCRETE_STEP_MS = 400;
/** A default speed aims to make the whole timeline last at least this long in wall-clock time. */
export const TARGET_PLAY_MS = 3000;

/**
 * The speed for a timeline of `endUs`: the fastest of PLAYBACK_SPEEDS that makes it last at least
 * TARGET_PLAY_MS, or the slowest when none does (a loopback run of 300 µs lasts 0.3 s even at 1/1000).
 */
export function defaultSpeedFor(endUs: number): number {
  for (const speed of PLAYBACK_SPEEDS) if (endUs / speed / 1000 >= TARGET_PLAY_MS) return speed;
  return PLAYBACK_SPEEDS[PLAYBACK_SPEEDS.length - 1]!;
}

/** Index in PLAYBACK_SPEEDS of the listed speed nearest to `speed` (> 0), on a log scale; the first on a tie. */
function nearestSpeedIndex(speed: number): number {
  let nearest = 0;
  PLAYBACK_SPEEDS.forEach((s, i) => {
    if (Math.abs(Math.log(s / speed)) < Math.abs(Math.log(PLAYBACK_SPEEDS[nearest]! / speed))) nearest = i;
  });
  return nearest;
}

/** The listed speed nearest to `speed` (> 0), on a log scale. */
export function nearestSpeed(speed: number): number {
  return PLAYBACK_SPEEDS[nearestSpeedIndex(speed)]!;
}

/** The next speed in PLAYBACK_SPEEDS from `speed`: faster (+1) or slower (−1), staying at the ends. */
export function nextSpeed(speed: number, direction: 1 | -1): number {
  const index = Math.min(PLAYBACK_SPEEDS.length - 1, Math.max(0, nearestSpeedIndex(speed) - direction));
  return PLAYBACK_SPEEDS[index]!;
}

/** A speed menu's choices: the listed speeds, plus `current` (fastest first) when it came from elsewhere and is not listed. */
export function speedChoices(current: number): readonly number[] {
  return PLAYBACK_SPEEDS.some((s) => s === current) ? PLAYBACK_SPEEDS : [...PLAYBACK_SPEEDS, current].sort((a, b) => b - a);
}

export interface PlaybackSnapshot {
  /** The playhead, µs since t0; null = not playing back (everything drawn). */
  positionUs: number | null;
  playing: boolean;
  /** Trace µs per wall-clock µs (1 = real time). */
  speed: number;
  /** The end of the timeline played, µs since t0 (the longest run on screen); 0 = nothing to play. */
  endUs: number;
}

export class PlaybackClock {
  private readonly state: SnapshotStore<PlaybackSnapshot>;
  /** performance.now() (ms) of the last advance while playing; null when paused. */
  private lastTickMs: number | null = null;
  /** Ascending µs since t0 where a step can land (setStops). */
  private stops: ArrayLike<number> = [];
  /** Discrete playback: jump from stop to stop instead of gliding (prefers-reduced-motion). */
  private discreteSteps = false;
  /** Whether a speed was chosen (setSpeed: the speed picker, the keys, the URL), so suggestSpeed leaves it. */
  private speedChosen = false;
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => PlaybackSnapshot;

  constructor(
    private readonly scheduler: FrameScheduler = frameScheduler,
    private readonly nowMs: () => number = () => performance.now(),
  ) {
    this.state = new SnapshotStore<PlaybackSnapshot>({ positionUs: null, playing: false, speed: DEFAULT_PLAYBACK_SPEED, endUs: 0 }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  /** The timeline's length changed (other runs on screen, or a live run grew); keeps the playhead inside it. */
  setEnd(endUs: number): void {
    const end = Math.max(0, endUs);
    const { positionUs } = this.state.getSnapshot();
    this.state.update({ endUs: end, positionUs: positionUs === null ? null : Math.min(positionUs, end) });
  }

  /** The times a step can land on, ascending (model/playback-events.ts mergedEventTimes). */
  setStops(stopsUs: ArrayLike<number>): void {
    this.stops = stopsUs;
  }

  /** Playing jumps from stop to stop (reduced motion) rather than moving continuously. */
  setDiscrete(discrete: boolean): void {
    if (discrete === this.discreteSteps) return;
    this.discreteSteps = discrete;
    this.state.update({}); // the diagrams redraw (no travelling dots in discrete mode)
  }

  get discrete(): boolean {
    return this.discreteSteps;
  }

  /** Moves the playhead (clamped to [0, endUs]); null leaves playback and draws everything. */
  seek(positionUs: number | null): void {
    if (positionUs === null) {
      this.lastTickMs = null;
      this.state.update({ positionUs: null, playing: false });
      return;
    }
    const { endUs } = this.state.getSnapshot();
    this.state.update({ positionUs: Math.min(Math.max(0, positionUs), endUs) });
  }

  play(): void {
    const { positionUs, endUs } = this.state.getSnapshot();
    if (endUs <= 0) return;
    const from = positionUs === null || positionUs >= endUs ? 0 : positionUs;
    this.lastTickMs = this.nowMs();
    this.state.update({ positionUs: from, playing: true });
    this.scheduler.request(this, this.tick);
  }

  pause(): void {
    this.lastTickMs = null;
    this.state.update({ playing: false });
  }

  toggle(): void {
    if (this.state.getSnapshot().playing) this.pause();
    else this.play();
  }

  setSpeed(speed: number): void {
    if (!(speed > 0) || !Number.isFinite(speed)) return;
    this.speedChosen = true;
    this.applySpeed(speed);
  }

  /** A default speed for the timeline shown (defaultSpeedFor), taken only while nobody has chosen one. */
  suggestSpeed(speed: number): void {
    if (!this.speedChosen && speed > 0 && Number.isFinite(speed)) this.applySpeed(speed);
  }

  faster(): void {
    this.setSpeed(nextSpeed(this.state.getSnapshot().speed, 1));
  }

  slower(): void {
    this.setSpeed(nextSpeed(this.state.getSnapshot().speed, -1));
  }

  /** To the first stop after the playhead (or endUs); from no playback, the first stop. Keeps playing or paused. */
  stepForward(): void {
    const { positionUs, endUs } = this.state.getSnapshot();
    const from = positionUs ?? -1;
    const next = upperBound(this.stops, from);
    this.moveTo(next < this.stops.length ? Math.min(endUs, this.stops[next]!) : endUs);
  }

  /** To the last stop before the playhead (or 0); from no playback, the last stop. */
  stepBack(): void {
    const { positionUs, endUs } = this.state.getSnapshot();
    const from = positionUs ?? Number.POSITIVE_INFINITY;
    const previous = lowerBound(this.stops, Math.min(from, endUs + 1)) - 1;
    this.moveTo(previous >= 0 ? Math.min(endUs, this.stops[previous]!) : 0);
  }

  /** One frame (FRAME_FRACTION of endUs) forward (+1) or back (−1); from no playback, from 0 or the end. */
  frame(direction: 1 | -1): void {
    const { positionUs, endUs } = this.state.getSnapshot();
    const from = positionUs ?? (direction > 0 ? 0 : endUs);
    this.moveTo(from + direction * endUs * FRAME_FRACTION);
  }

  home(): void {
    this.moveTo(0);
  }

  end(): void {
    this.pause();
    this.moveTo(this.state.getSnapshot().endUs);
  }

  /** A seek from a step or a key: restarts the wall-clock reference so that playing goes on from there. */
  private moveTo(positionUs: number): void {
    if (this.lastTickMs !== null) this.lastTickMs = this.nowMs();
    this.seek(positionUs);
  }

  private applySpeed(speed: number): void {
    if (this.lastTickMs !== null && !this.discreteSteps) this.advance(); // the time so far at the old speed
    this.state.update({ speed });
  }

  private advance(): void {
    if (this.discreteSteps) {
      this.advanceDiscrete();
      return;
    }
    const now = this.nowMs();
    const { positionUs, speed, endUs } = this.state.getSnapshot();
    const elapsedUs = (now - (this.lastTickMs ?? now)) * 1000;
    this.lastTickMs = now;
    const next = Math.min(endUs, (positionUs ?? 0) + elapsedUs * speed);
    if (next >= endUs) {
      this.lastTickMs = null;
      this.state.update({ positionUs: endUs, playing: false });
    } else this.state.update({ positionUs: next });
  }

  /** Reduced motion: after DISCRETE_STEP_MS of wall time, the next stop (or the end, where playing stops). */
  private advanceDiscrete(): void {
    const now = this.nowMs();
    if (now - (this.lastTickMs ?? now) < DISCRETE_STEP_MS) return;
    this.lastTickMs = now;
    const { positionUs, endUs } = this.state.getSnapshot();
    const next = upperBound(this.stops, positionUs ?? -1);
    const target = next < this.stops.length ? Math.min(endUs, this.stops[next]!) : endUs;
    if (target >= endUs) {
      this.lastTickMs = null;
      this.state.update({ positionUs: endUs, playing: false });
    } else this.state.update({ positionUs: target });
  }

  private readonly tick = (): void => {
    if (this.lastTickMs === null) return;
    this.advance();
    if (this.lastTickMs !== null) this.scheduler.request(this, this.tick);
  };
}
