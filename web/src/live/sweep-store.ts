// The depth sweep's small global state: the active sweep (live points as they come), the sweep on
// screen (finished, or opened from a file or URL) and the sweep view's message line. It shares the
// session's one WebSocket (SessionStore.listen / send) and, like the session, publishes each change
// at most once per frame through the frame scheduler. React reads it with useSyncExternalStore.
import type { ClientMessage, ServerMessage } from '../../../trace/live-protocol.ts';
import type { SweepDocument, SweepSpec } from '../../../trace/sweep-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import type { ConnectionState } from './live-client.ts';
import type { AppMessage, TraceSource } from './session-store.ts';
import type { ActiveSweep } from '../model/active-sweep.ts';
import { SweepTracker, type SweepTrackerEvent } from './sweep-tracker.ts';

export interface LiveListener {
  onMessage(message: ServerMessage): void;
  onConnection(state: ConnectionState): void;
}

/** The part of the session a sweep needs: its socket, to send on and to hear from. */
export interface LiveChannel {
  send(message: ClientMessage): boolean;
  listen(listener: LiveListener): () => void;
}

export interface SweepSnapshot {
  active: ActiveSweep | null;
  /** A sweep that was cancelled or failed: its points stay on screen until the next sweep or file. */
  stopped: ActiveSweep | null;
  doc: SweepDocument | null;
  source: TraceSource | null;
  message: AppMessage | null;
}

function newRequestId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `sweep-${random}`.slice(0, 64);
}

export class SweepStore {
  private snapshot: SweepSnapshot = { active: null, stopped: null, doc: null, source: null, message: null };
  private readonly listeners = new Set<() => void>();
  private readonly tracker = new SweepTracker();

  constructor(
    private readonly channel: LiveChannel,
    private readonly scheduler: FrameScheduler = frameScheduler,
  ) {}

  /** Starts hearing the session's socket; returns the function that stops it. */
  attach(): () => void {
    return this.channel.listen({
      onMessage: (message) => {
        const events = this.tracker.handle(message);
        if (events.length > 0 || this.tracker.active !== this.snapshot.active) this.react(events);
      },
      onConnection: (state) => {
        if (state.status === 'closed') this.react(this.tracker.abandon('The connection to the backend closed during the sweep; it did not finish.'));
      },
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SweepSnapshot => this.snapshot;

  run(spec: SweepSpec): boolean {
    if (this.tracker.active) return false;
    const requestId = newRequestId();
    this.tracker.begin(requestId, spec);
    if (!this.channel.send({ type: 'sweep', requestId, spec })) {
      this.tracker.abandon('');
      this.update({ message: { kind: 'error', text: 'Not connected to the backend; the sweep was not sent.' } });
      return false;
    }
    this.update({ message: null, stopped: null });
    return true;
  }

  cancel(): void {
    const active = this.tracker.active;
    if (!active) return;
    this.tracker.markCancelling();
    this.channel.send({ type: 'cancel', requestId: active.requestId });
    this.update({});
  }

  show(doc: SweepDocument, source: TraceSource): void {
    this.update({ doc, source, message: null, stopped: null });
  }

  setMessage(message: AppMessage | null): void {
    this.update({ message });
  }

  private react(events: SweepTrackerEvent[]): void {
    const patch: Partial<SweepSnapshot> = {};
    // Ended without a document (cancelled, failed, connection lost): keep what it measured on screen.
    const previous = this.snapshot.active;
    const keep = previous && previous.ours.length > 0 ? previous : null;
    for (const event of events) {
      if (event.kind === 'document') {
        patch.doc = event.doc;
        patch.source = 'live';
        patch.stopped = null;
      } else if (event.kind === 'failed') {
        patch.message = event.message ? { kind: 'error', text: event.message } : null;
        patch.stopped = keep;
      } else if (event.outcome === 'cancelled') {
        patch.message = { kind: 'info', text: 'Sweep cancelled; the points measured before it stopped stay on the chart.' };
        patch.stopped = keep;
      }
    }
    this.update(patch);
  }

  /** Merges a change and publishes it with the next frame. */
  private update(patch: Partial<SweepSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch, active: this.tracker.active };
    this.scheduler.request(this, () => {
      for (const listener of this.listeners) listener();
    });
  }
}
