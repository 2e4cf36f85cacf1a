// How often the live drawing rebuilds the partial document of a run under way. Rebuilding costs about
// its size: TraceBuilder.partial copies the record arrays and the diagram re-reads the document as
// columns (model/trace-columns.ts). Measured at 100,000 commands (vitest + jsdom on the shared 2-core
// machine, warm): partial() 2-20 ms, traceColumns 35-100 ms — far too much for every frame. So a small
// run is redrawn with every frame, and a large one at most every commands / 400 ms (up to
// PARTIAL_MAX_INTERVAL_MS): a 100,000-command run is rebuilt four times a second, well under half of the
// main thread even on that machine. The first rebuild of a run waits FIRST_PARTIAL_DELAY_MS, so a run
// that ends at once never flashes a partial diagram before its whole one.
// Measured once in Chromium (built app, a live sequential PING run of 100,000, ~16-20 s, on the shared
// 2-core machine): frames p50 17 ms / p95 53 ms, long tasks 2.6 s in all and the longest 260 ms, against
// p95 80 ms, 7.1 s and 2.66 s (the whole document drawn at once at run-end) before live drawing — the
// views skip for a partial run what reads every command (latency histograms, compare rows, summaries).

/** Runs below this many commands are rebuilt as often as events arrive (the snapshot store then limits it to once per frame). */
export const PARTIAL_EVERY_FRAME_BELOW = 2_000;
export const PARTIAL_MAX_INTERVAL_MS = 250;
export const FIRST_PARTIAL_DELAY_MS = 100;

/** ms to wait between two rebuilds of a partial document of `commands` commands. */
export function partialIntervalMs(commands: number): number {
  return commands < PARTIAL_EVERY_FRAME_BELOW ? 0 : Math.min(PARTIAL_MAX_INTERVAL_MS, commands / 400);
}

export interface ThrottleTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Calls `rebuild` after new events, no sooner than partialIntervalMs after the last rebuild. */
export class PartialTraceThrottle {
  /** When the last rebuild ran, and the earliest the next may (ms, timers.now()). */
  private lastAt = -Infinity;
  private notBefore = -Infinity;
  private pending: unknown = null;

  constructor(private readonly rebuild: () => void, private readonly timers: ThrottleTimers = realTimers) {}

  /** A run started: its first rebuild waits FIRST_PARTIAL_DELAY_MS. */
  runStarted(): void {
    this.cancel();
    this.notBefore = this.timers.now() + FIRST_PARTIAL_DELAY_MS;
  }

  /** New events arrived for a run of `commands` commands so far. */
  eventsArrived(commands: number): void {
    if (this.pending !== null) return;
    const waitMs = Math.max(0, this.notBefore - this.timers.now(), this.lastAt + partialIntervalMs(commands) - this.timers.now());
    this.pending = this.timers.setTimeout(() => {
      this.pending = null;
      this.lastAt = this.timers.now();
      this.rebuild();
    }, waitMs);
  }

  /** No rebuild pending any more (the run ended: its whole or incomplete trace replaces the partial one). */
  cancel(): void {
    if (this.pending !== null) this.timers.clearTimeout(this.pending);
    this.pending = null;
  }
}
