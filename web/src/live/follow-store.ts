// The attendee's side of follow mode: joins the presenter's session with the link's code (again after a
// reconnect) and folds the presenter's run messages into a LiveRunTracker of its own, adopting each
// request the backend announces (follow-request) — the tab never starts a run itself, so it must take on
// request ids it did not make. Holds the presenter's traces, their progress, the latest display state and
// how the session stands, for the views and state/follow-mirror.ts.
import type { FollowDisplay } from '../../../trace/protocol/follow-protocol.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import type { ChannelPort } from './live-channel.ts';
import { LiveRunTracker, type ActiveRequest, type TrackerEvent } from './live-run-tracker.ts';

export interface FollowSnapshot {
  /** joining: waiting for the connection or the backend's answer; ended/refused: for good (reload to try again). */
  status: 'joining' | 'following' | 'ended' | 'refused';
  /** What to tell the attendee now; null when following with nothing to add. */
  message: string | null;
  /** What the join replayed: nothing yet, the latest request, or not it (too big). */
  replay: 'none' | 'complete' | 'too-big' | null;
  active: ActiveRequest | null;
  traces: readonly TraceDocument[];
  display: FollowDisplay | null;
}

export class FollowStore {
  private readonly state: SnapshotStore<FollowSnapshot>;
  private readonly tracker = new LiveRunTracker();
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => FollowSnapshot;

  /** `problem`: the link itself is wrong (state/follow-link.ts); the store says so and joins nothing. */
  constructor(
    private readonly channel: ChannelPort,
    readonly code: string,
    scheduler: FrameScheduler = frameScheduler,
    problem: string | null = null,
  ) {
    this.state = new SnapshotStore<FollowSnapshot>(
      { status: problem ? 'refused' : 'joining', message: problem, replay: null, active: null, traces: [], display: null }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  attach(): () => void {
    if (this.state.getSnapshot().status === 'refused') return () => {};
    if (this.channel.isOpen) this.join();
    return this.channel.listen({
      onConnection: (connection) => {
        const { status } = this.state.getSnapshot();
        if (status === 'ended' || status === 'refused') return;
        if (connection.status === 'open') this.join();
        else if (connection.status === 'closed') {
          this.tracker.abandon('');
          this.update({ status: 'joining', message: 'The connection to the backend was lost; following again when it is back…' });
        }
      },
      onMessage: (message) => this.receive(message),
    });
  }

  private join(): void {
    this.channel.send({ type: 'follow-join', code: this.code });
  }

  private receive(message: ServerMessage): void {
    const { status } = this.state.getSnapshot();
    if (status === 'ended' || status === 'refused') return;
    switch (message.type) {
      case 'follow-joined':
        this.update({
          status: 'following', replay: message.replay,
          message: message.replay === 'too-big' ? 'The presenter’s latest run was too big to replay here; their next run will be shown as it happens.' : null,
        });
        return;
      case 'follow-error':
        if (status === 'joining') this.update({ status: 'refused', message: message.message });
        return;
      case 'follow-ended':
        this.tracker.abandon('');
        this.update({ status: 'ended', message: message.message });
        return;
      case 'follow-display':
        this.update({ display: message.display });
        return;
      case 'follow-request':
        this.tracker.begin(message.requestId, message.spec); // adopt the presenter's request
        this.update({});
        return;
      default:
        this.react(this.tracker.handle(message));
        this.update({});
    }
  }

  private react(events: TrackerEvent[]): void {
    for (const event of events) {
      if (event.kind === 'trace') {
        // As on the presenter's page: a request's first run replaces what was on screen.
        const traces = event.firstOfRequest ? [event.doc] : [...this.state.getSnapshot().traces, event.doc];
        this.update({ traces, message: null });
      } else if (event.kind === 'failed' && event.message) {
        this.update({ message: `The presenter’s run failed: ${event.message}` });
      } else if (event.kind === 'finished' && event.outcome === 'cancelled') {
        this.update({ message: 'The presenter cancelled the run.' });
      }
    }
  }

  private update(patch: Partial<FollowSnapshot>): void {
    this.state.update({ ...patch, active: this.tracker.active });
  }
}
