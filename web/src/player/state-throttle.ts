// At most one call per interval (100 ms: ≤ 10 a second), the first at once and the last never lost: a
// change inside the interval is sent when it ends, with the value as it then stands. For the player's
// pipescope-state events (and so the embed's `state` messages) while playback moves every frame.
export class Throttle {
  private lastMs = Number.NEGATIVE_INFINITY;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: () => void,
    private readonly intervalMs = 100,
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  /** Something changed: send now, or when the interval since the last send is over. */
  poke(): void {
    if (this.timer !== null) return;
    const wait = this.lastMs + this.intervalMs - this.nowMs();
    if (wait <= 0) this.fire();
    else this.timer = setTimeout(() => this.fire(), wait);
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private fire(): void {
    this.timer = null;
    this.lastMs = this.nowMs();
    this.send();
  }
}
