// One playhead for every diagram on screen: where playback is (µs since t0 on the shared time axis),
// whether it is playing and how fast. Diagrams draw what happened up to the playhead; the playback bar,
// the keyboard, the URL (`t=`) and follow mode read and move this one clock. Outside React: views read it
// with useSyncExternalStore, painters subscribe. Invariants: 0 ≤ positionUs ≤ endUs when not null;
// null = no playback, the whole run drawn (the default). While playing, it advances once per frame by
// (wall-clock µs elapsed) × speed, and stops at endUs.
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';

/** Trace µs per wall-clock µs, fastest first: real time down to 1/1000 (loopback events are µs apart). */
export const PLAYBACK_SPEEDS = [1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001] as const;
export const DEFAULT_PLAYBACK_SPEED = 0.001;

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
    if (this.lastTickMs !== null) this.advance(); // the time so far at the old speed
    this.state.update({ speed });
  }

  private advance(): void {
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

  private readonly tick = (): void => {
    if (this.lastTickMs === null) return;
    this.advance();
    if (this.lastTickMs !== null) this.scheduler.request(this, this.tick);
  };
}
