// The depth sweep's small global state: the active sweep (live points as they come), the sweep on
// screen (finished, or opened from a file or URL) and the sweep view's message line. It shares the
// page's one WebSocket through the live channel (live-channel.ts: listen / send) and, like the run
// store, publishes each change at most once per frame (a snapshot store). React reads it with
// useSyncExternalStore.
import type { SweepDocument, SweepSpec } from '../../../trace/format/sweep-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import type { ActiveSweep } from '../model/active-sweep.ts';
import { newRequestId, targetOf, type ChannelPort } from './live-channel.ts';
import type { AppMessage, TraceSource } from './store-types.ts';
import { SweepTracker, type SweepTrackerEvent } from './sweep-tracker.ts';

export interface SweepSnapshot {
  active: ActiveSweep | null;
  /** A sweep that was cancelled or failed: its points stay on screen until the next sweep or file. */
  stopped: ActiveSweep | null;
  doc: SweepDocument | null;
  source: TraceSource | null;
  message: AppMessage | null;
}

export class SweepStore {
  private readonly state: SnapshotStore<SweepSnapshot>;
  private readonly tracker = new SweepTracker();
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => SweepSnapshot;

  constructor(
    /** The sweep only sends and hears; whether the socket is open is the channel's to say (send returns false). */
    private readonly channel: Pick<ChannelPort, 'send' | 'listen' | 'runTarget'>,
    scheduler: FrameScheduler = frameScheduler,
  ) {
    this.state = new SnapshotStore<SweepSnapshot>({ active: null, stopped: null, doc: null, source: null, message: null }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  /** Starts hearing the channel; returns the function that stops it. */
  attach(): () => void {
    return this.channel.listen({
      onMessage: (message) => {
        const events = this.tracker.handle(message);
        if (events.length > 0 || this.tracker.active !== this.state.getSnapshot().active) this.react(events);
      },
      onConnection: (state) => {
        if (state.status === 'closed') this.react(this.tracker.abandon('The connection to the backend closed during the sweep; it did not finish.'));
      },
    });
  }

  run(spec: SweepSpec): boolean {
    if (this.tracker.active) return false;
    const requestId = newRequestId('sweep');
    this.tracker.begin(requestId, spec);
    if (!this.channel.send({ type: 'sweep', requestId, spec, ...targetOf(this.channel) })) {
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
    const previous = this.state.getSnapshot().active;
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

  /** Merges a change, with the tracker's active sweep as it is now, and publishes it with the next frame. */
  private update(patch: Partial<SweepSnapshot>): void {
    this.state.update({ ...patch, active: this.tracker.active });
  }
}
