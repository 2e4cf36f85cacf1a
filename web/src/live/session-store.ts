// The app's small global state: backend connection, Redis status, the active run request, the traces
// on screen and one message line. React reads it with useSyncExternalStore; every change is published
// at most once per frame through the frame scheduler, however fast run-events arrive (events are folded
// into the TraceBuilder as they come, which is cheap; only the re-render waits for the frame).
import type { ClientMessage, RedisStatus, ServerMessage } from '../../../trace/live-protocol.ts';
import type { RunSpec } from '../../../trace/run-request.ts';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { frameScheduler, type FrameScheduler } from '../base/frame-scheduler.ts';
import { LiveClient, liveUrl, type ConnectionState } from './live-client.ts';
import { LiveRunTracker, type ActiveRequest, type TrackerEvent } from './live-run-tracker.ts';
import type { LiveChannel, LiveListener } from './sweep-store.ts';

export interface AppMessage {
  kind: 'error' | 'info';
  text: string;
}

export type TraceSource = 'live' | 'file' | 'url';

export interface SessionSnapshot {
  connection: ConnectionState;
  backendVersion: string | null;
  redis: RedisStatus | null;
  active: ActiveRequest | null;
  traces: readonly TraceDocument[];
  tracesSource: TraceSource | null;
  message: AppMessage | null;
}

function newRequestId(): string {
  const random = globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return `req-${random}`.slice(0, 64);
}

export class SessionStore implements LiveChannel {
  private snapshot: SessionSnapshot = {
    connection: { status: 'connecting', attempt: 1 },
    backendVersion: null,
    redis: null,
    active: null,
    traces: [],
    tracesSource: null,
    message: null,
  };
  private readonly listeners = new Set<() => void>();
  private readonly tracker = new LiveRunTracker();
  private client: LiveClient | null = null;
  /** Other request kinds on the same socket (depth sweeps): they hear every message and connection change. */
  private readonly channelListeners = new Set<LiveListener>();

  constructor(private readonly scheduler: FrameScheduler = frameScheduler) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): SessionSnapshot => this.snapshot;

  start(url = liveUrl(window.location)): void {
    if (this.client) return;
    this.client = new LiveClient(url, {
      onConnection: (connection) => {
        const lost = connection.status === 'closed' ? this.tracker.abandon('The connection to the backend closed during the run; it did not finish.') : [];
        this.update({ connection });
        this.react(lost);
        for (const listener of this.channelListeners) listener.onConnection(connection);
      },
      onInvalidMessage: (problem) => this.update({ message: { kind: 'error', text: problem } }),
      onMessage: (message) => {
        this.receive(message);
        for (const listener of this.channelListeners) listener.onMessage(message);
      },
    });
    this.client.start();
  }

  stop(): void {
    this.client?.stop();
    this.client = null;
  }

  listen(listener: LiveListener): () => void {
    this.channelListeners.add(listener);
    return () => this.channelListeners.delete(listener);
  }

  send(message: ClientMessage): boolean {
    return this.client?.send(message) ?? false;
  }

  retryNow(): void {
    this.client?.retryNow();
  }

  run(spec: RunSpec): boolean {
    if (!this.client?.isOpen || this.tracker.active) return false;
    const requestId = newRequestId();
    this.tracker.begin(requestId, spec);
    if (!this.client.send({ type: 'run', requestId, spec })) {
      this.tracker.abandon('');
      this.update({ message: { kind: 'error', text: 'Not connected to the backend; the run was not sent.' } });
      return false;
    }
    this.update({ message: null });
    return true;
  }

  cancel(): void {
    const active = this.tracker.active;
    if (!active || !this.client) return;
    this.tracker.markCancelling();
    this.client.send({ type: 'cancel', requestId: active.requestId });
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
        this.update({ backendVersion: message.version, redis: message.redis });
        return;
      case 'redis-status':
        this.update({ redis: message.redis });
        return;
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
        const traces = event.firstOfRequest || this.snapshot.tracesSource !== 'live' ? [event.doc] : [...this.snapshot.traces, event.doc];
        this.update({ traces, tracesSource: 'live' });
      } else if (event.kind === 'failed') {
        if (event.message) this.update({ message: { kind: 'error', text: event.message } });
      } else if (event.outcome === 'cancelled') {
        this.update({ message: { kind: 'info', text: 'Run cancelled.' } });
      }
    }
  }

  /** Merges a change and publishes it with the next frame. */
  private update(patch: Partial<SessionSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...patch, active: this.tracker.active };
    this.scheduler.request(this, () => {
      for (const listener of this.listeners) listener();
    });
  }
}
