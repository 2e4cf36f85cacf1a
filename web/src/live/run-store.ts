// The run side of the app's small global state: the active run request, the traces on screen and the
// message line. It hears the backend through the live channel (live-channel.ts, which also holds the
// connection and Redis status) and sends its run and cancel requests there. React reads it with
// useSyncExternalStore; every change is published at most once per frame (a snapshot store), however
// fast run-events arrive (events are folded into the TraceBuilder as they come, which is cheap; only
// the re-render waits for the frame).
import type { ServerMessage } from '../../../trace/live-protocol.ts';
import type { RunSpec } from '../../../trace/run-request.ts';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import { newRequestId, type ChannelPort } from './live-channel.ts';
import { LiveRunTracker, type ActiveRequest, type TrackerEvent } from './live-run-tracker.ts';
import type { AppMessage, TraceSource } from './store-types.ts';

export interface RunSnapshot {
  active: ActiveRequest | null;
  traces: readonly TraceDocument[];
  tracesSource: TraceSource | null;
  message: AppMessage | null;
}

export class RunStore {
  private readonly state: SnapshotStore<RunSnapshot>;
  private readonly tracker = new LiveRunTracker();
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => RunSnapshot;

  constructor(
    private readonly channel: ChannelPort,
    scheduler: FrameScheduler = frameScheduler,
  ) {
    this.state = new SnapshotStore<RunSnapshot>({ active: null, traces: [], tracesSource: null, message: null }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  /** Starts hearing the channel; returns the function that stops it. */
  attach(): () => void {
    return this.channel.listen({
      onConnection: (connection) => {
        if (connection.status === 'closed') this.react(this.tracker.abandon('The connection to the backend closed during the run; it did not finish.'));
      },
      onInvalidMessage: (problem) => this.update({ message: { kind: 'error', text: problem } }),
      onMessage: (message) => this.receive(message),
    });
  }

  run(spec: RunSpec): boolean {
    if (!this.channel.isOpen || this.tracker.active) return false;
    const requestId = newRequestId('req');
    this.tracker.begin(requestId, spec);
    if (!this.channel.send({ type: 'run', requestId, spec })) {
      this.tracker.abandon('');
      this.update({ message: { kind: 'error', text: 'Not connected to the backend; the run was not sent.' } });
      return false;
    }
    this.update({ message: null });
    return true;
  }

  cancel(): void {
    const active = this.tracker.active;
    if (!active) return;
    this.tracker.markCancelling();
    this.channel.send({ type: 'cancel', requestId: active.requestId });
    this.update({});
  }

  showTraces(traces: readonly TraceDocument[], source: TraceSource): void {
    this.update({ traces, tracesSource: source, message: null });
  }

  setMessage(message: AppMessage | null): void {
    this.update({ message });
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'hello':
      case 'redis-status':
        return; // the channel's status
      case 'error':
        if (message.requestId === undefined) {
          this.update({ message: { kind: 'error', text: `The backend refused a message: ${message.message}` } });
          return;
        }
        break;
      default:
        break;
    }
    this.react(this.tracker.handle(message));
    this.update({});
  }

  private react(events: TrackerEvent[]): void {
    for (const event of events) {
      if (event.kind === 'trace') {
        // A new request replaces what was on screen when its first run completes.
        const { traces, tracesSource } = this.state.getSnapshot();
        this.update({ traces: event.firstOfRequest || tracesSource !== 'live' ? [event.doc] : [...traces, event.doc], tracesSource: 'live' });
      } else if (event.kind === 'failed') {
        if (event.message) this.update({ message: { kind: 'error', text: event.message } });
      } else if (event.outcome === 'cancelled') {
        this.update({ message: { kind: 'info', text: 'Run cancelled.' } });
      }
    }
  }

  /** Merges a change, with the tracker's active request as it is now, and publishes it with the next frame. */
  private update(patch: Partial<RunSnapshot>): void {
    this.state.update({ ...patch, active: this.tracker.active });
  }
}
