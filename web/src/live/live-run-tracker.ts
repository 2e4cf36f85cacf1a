// Follows one run request through the live protocol: queue position, one TraceBuilder per mode fed
// with the decoded run-events (with their byte heads, when recorded), finished trace documents at
// run-end (with the Redis side, when server-traced, and the memory samples, when taken: finishRun hands
// both to TraceBuilder.finish, so a live trace equals the recorded one). No socket and no DOM here, so the
// whole message flow is unit-tested. Invariant: at most one request is active per tab.
import { TraceBuilder, TraceError } from '../../../trace/trace-builder.ts';
import { decodeBatch, finishRun, type ServerMessage } from '../../../trace/live-protocol.ts';
import type { RunSpec } from '../../../trace/run-request.ts';
import type { RunMode, TraceDocument } from '../../../trace/trace-format.ts';

export interface ModeProgress {
  mode: RunMode;
  n: number;
  sent: number;
  replied: number;
  /** Latest event time, µs since the run's t0 (for the ETA). */
  lastUs: number;
  done: boolean;
}

export interface ActiveRequest {
  requestId: string;
  spec: RunSpec;
  /** Runs ahead of this one; 0 = running now; null = not yet acknowledged. */
  position: number | null;
  cancelling: boolean;
  progress: ModeProgress[];
}

export type TrackerEvent =
  | { kind: 'trace'; doc: TraceDocument; firstOfRequest: boolean }
  | { kind: 'finished'; outcome: 'done' | 'cancelled' }
  | { kind: 'failed'; message: string };

export class LiveRunTracker {
  private request: { requestId: string; spec: RunSpec; position: number | null; cancelling: boolean } | null = null;
  private builders = new Map<string, TraceBuilder>();
  private finishedModes = new Map<RunMode, ModeProgress>();
  private tracesOfRequest = 0;

  get active(): ActiveRequest | null {
    if (!this.request) return null;
    const progress: ModeProgress[] = this.request.spec.modes.map((mode) => {
      const finished = this.finishedModes.get(mode);
      if (finished) return finished;
      const builder = [...this.builders.values()].find((b) => b.run.mode === mode);
      const p = builder?.progress;
      return { mode, n: this.request!.spec.n, sent: p?.sent ?? 0, replied: p?.replied ?? 0, lastUs: p?.lastUs ?? 0, done: false };
    });
    return { ...this.request, progress };
  }

  begin(requestId: string, spec: RunSpec): void {
    this.request = { requestId, spec, position: null, cancelling: false };
    this.builders.clear();
    this.finishedModes.clear();
    this.tracesOfRequest = 0;
  }

  markCancelling(): void {
    if (this.request) this.request.cancelling = true;
  }

  /** The connection went away: whatever was running is lost. */
  abandon(reason: string): TrackerEvent[] {
    if (!this.request) return [];
    this.end();
    return [{ kind: 'failed', message: reason }];
  }

  /** Folds one validated message into the request; returns what the app should react to. */
  handle(message: ServerMessage): TrackerEvent[] {
    if (!('requestId' in message) || !this.request || message.requestId !== this.request.requestId) return [];
    try {
      return this.apply(message);
    } catch (error) {
      if (!(error instanceof TraceError)) throw error;
      this.end();
      return [{ kind: 'failed', message: `The run's events do not make a valid trace: ${error.message}` }];
    }
  }

  private apply(message: ServerMessage): TrackerEvent[] {
    const request = this.request!;
    switch (message.type) {
      case 'queued':
        request.position = message.position;
        return [];
      case 'run-start':
        request.position = 0;
        this.builders.set(message.run.id, new TraceBuilder(message));
        return [];
      case 'run-events': {
        const builder = this.builders.get(message.runId);
        if (!builder) throw new TraceError(`Events for run ${message.runId}, which never started.`);
        builder.addBatch(decodeBatch(message));
        return [];
      }
      case 'run-end': {
        const builder = this.builders.get(message.runId);
        if (!builder) throw new TraceError(`End of run ${message.runId}, which never started.`);
        // Server-traced runs bring Redis's side (MONITOR executions, strace calls) with their end.
        const doc = finishRun(builder, message);
        this.builders.delete(message.runId);
        this.finishedModes.set(doc.run.mode, { mode: doc.run.mode, n: doc.run.n, sent: doc.run.n, replied: doc.run.n, lastUs: doc.totals.durationUs, done: true });
        const firstOfRequest = this.tracesOfRequest === 0;
        this.tracesOfRequest++;
        return [{ kind: 'trace', doc, firstOfRequest }];
      }
      case 'request-done':
        this.end();
        return [{ kind: 'finished', outcome: 'done' }];
      case 'cancelled':
        this.end();
        return [{ kind: 'finished', outcome: 'cancelled' }];
      case 'error':
        this.end();
        return [{ kind: 'failed', message: message.message }];
      default:
        return [];
    }
  }

  private end(): void {
    this.request = null;
    this.builders.clear();
    this.finishedModes.clear();
  }
}
