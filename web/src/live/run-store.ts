// The run side of the app's small global state: the active run request, the traces on screen and the
// message line. It hears the backend through the live channel (live-channel.ts, which also holds the
// connection and Redis status) and sends its run and cancel requests there. React reads it with
// useSyncExternalStore; every change is published at most once per frame (a snapshot store), however
// fast run-events arrive (events are folded into the TraceBuilder as they come, which is cheap; only
// the re-render waits for the frame). While a run streams, its partial document is drawn beside the
// request's runs already finished (partial-trace-throttle.ts says how often it is rebuilt); a run cut
// short stays on screen as the incomplete trace the tracker hands over.
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { SnapshotStore } from '../base/snapshot-store.ts';
import { newRequestId, targetOf, type ChannelPort } from './live-channel.ts';
import { LiveRunTracker, type ActiveRequest, type TrackerEvent } from './live-run-tracker.ts';
import { PartialTraceThrottle, type ThrottleTimers } from './partial-trace-throttle.ts';
import type { AppMessage, TraceSource } from './store-types.ts';

export interface RunSnapshot {
  active: ActiveRequest | null;
  traces: readonly TraceDocument[];
  tracesSource: TraceSource | null;
  message: AppMessage | null;
  /**
   * The runs on screen the backend keeps for links (run id → its stored id: trace/protocol/stored-runs.ts),
   * from its run-stored messages or from the link that opened them; only runs on screen are named.
   */
  stored: ReadonlyMap<string, string>;
}

const NONE_STORED: ReadonlyMap<string, string> = new Map();

export class RunStore {
  private readonly state: SnapshotStore<RunSnapshot>;
  private readonly tracker = new LiveRunTracker();
  private readonly partials: PartialTraceThrottle;
  readonly subscribe: (listener: () => void) => () => void;
  readonly getSnapshot: () => RunSnapshot;

  constructor(
    private readonly channel: ChannelPort,
    scheduler: FrameScheduler = frameScheduler,
    timers?: ThrottleTimers,
  ) {
    this.partials = new PartialTraceThrottle(() => this.showPartials(), timers);
    this.state = new SnapshotStore<RunSnapshot>({ active: null, traces: [], tracesSource: null, message: null, stored: NONE_STORED }, scheduler);
    this.subscribe = this.state.subscribe;
    this.getSnapshot = this.state.getSnapshot;
  }

  /** Starts hearing the channel; returns the function that stops it. */
  attach(): () => void {
    return this.channel.listen({
      onConnection: (connection) => {
        if (connection.status !== 'closed') return;
        this.partials.cancel();
        this.react(this.tracker.abandon('The connection to the backend closed during the run; it did not finish.'));
      },
      onInvalidMessage: (problem) => this.update({ message: { kind: 'error', text: problem } }),
      onMessage: (message) => this.receive(message),
    });
  }

  run(spec: RunSpec): boolean {
    if (!this.channel.isOpen || this.tracker.active) return false;
    const requestId = newRequestId('req');
    this.tracker.begin(requestId, spec);
    if (!this.channel.send({ type: 'run', requestId, spec, ...targetOf(this.channel) })) {
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

  /** Puts these traces on screen; `stored` names those the backend keeps for links (run id → stored id). */
  showTraces(traces: readonly TraceDocument[], source: TraceSource, stored: ReadonlyMap<string, string> = NONE_STORED): void {
    this.update({ traces, tracesSource: source, message: null, stored });
  }

  setMessage(message: AppMessage | null): void {
    this.update({ message });
  }

  private receive(message: ServerMessage): void {
    switch (message.type) {
      case 'hello':
      case 'redis-status':
        return; // the channel's status
      case 'run-stored': {
        // Only a run still on screen is named: a link names what is shown.
        const { traces, stored } = this.state.getSnapshot();
        if (traces.some((d) => d.run.id === message.runId)) this.update({ stored: new Map([...stored, [message.runId, message.storedId]]) });
        return;
      }
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
    this.drawLive(message);
  }

  /** Live drawing: a run's start and events ask for its partial document; its end (or the request's) cancels that. */
  private drawLive(message: ServerMessage): void {
    if (message.type === 'run-start') this.partials.runStarted();
    else if (message.type === 'run-events' && this.tracker.active) {
      this.partials.eventsArrived(Math.max(0, ...this.tracker.active.progress.map((p) => p.sent)));
    } else if (message.type === 'run-end' || !this.tracker.active) this.partials.cancel();
  }

  /** The runs under way, as far as they got, after the request's finished runs (the first replaces the screen, as a finished one does). */
  private showPartials(): void {
    const partials = this.tracker.partialDocs();
    if (partials.length === 0) return;
    const { traces, tracesSource } = this.state.getSnapshot();
    const finished = this.tracker.finishedOfRequest === 0 || tracesSource !== 'live' ? [] : traces.filter((d) => d.incomplete?.reason !== 'in-progress');
    this.update({ traces: [...finished, ...partials], tracesSource: 'live' });
  }

  private react(events: TrackerEvent[]): void {
    for (const event of events) {
      if (event.kind === 'trace') {
        // A new request replaces what was on screen when its first run completes; a run's partial document gives way to its trace.
        const { traces, tracesSource } = this.state.getSnapshot();
        const others = traces.filter((d) => d.run.id !== event.doc.run.id);
        this.update({ traces: event.firstOfRequest || tracesSource !== 'live' ? [event.doc] : [...others, event.doc], tracesSource: 'live' });
      } else if (event.kind === 'failed') {
        if (event.message) this.update({ message: { kind: 'error', text: event.message } });
      } else if (event.outcome === 'cancelled') {
        this.update({ message: { kind: 'info', text: 'Run cancelled.' } });
      }
      if (event.kind !== 'trace') this.dropInProgress();
    }
  }

  /** The request is over: no partial document of it stays drawn as in progress (its runs ended, whole or incomplete). */
  private dropInProgress(): void {
    const { traces } = this.state.getSnapshot();
    if (traces.some((d) => d.incomplete?.reason === 'in-progress')) this.update({ traces: traces.filter((d) => d.incomplete?.reason !== 'in-progress') });
  }

  /**
   * Merges a change, with the tracker's active request as it is now, and publishes it with the next frame.
   * New traces on screen keep the stored ids of those that stay (a live run's partial document gives way
   * to its whole one: its id comes after).
   */
  private update(patch: Partial<RunSnapshot>): void {
    if (patch.traces && !patch.stored) {
      const { stored } = this.state.getSnapshot();
      if (stored.size > 0) patch = { ...patch, stored: new Map([...stored].filter(([runId]) => patch.traces!.some((d) => d.run.id === runId))) };
    }
    this.state.update({ ...patch, active: this.tracker.active });
  }
}
