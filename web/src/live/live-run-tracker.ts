// Follows one run request through the live protocol: queue position, one TraceBuilder per run (each mode
// once per round, in rounds; progress counts the runs finished per mode) fed with the decoded
// run-events (with their byte heads, when recorded), finished trace documents at run-end (with the Redis side, when server-traced, and the memory samples, when taken: finishRun hands
// both to TraceBuilder.finish, so a live trace equals the recorded one). No socket and no DOM here, so the
// whole message flow is unit-tested. Invariant: at most one request is active per tab.
// v4: while a run streams, partialDocs() gives its document as far as it got (for the live drawing), and
// a run cut short (cancelled, connection lost, failed) is handed over as a trace marked incomplete.
import { TraceBuilder, TraceError, type IncompleteMark } from '../../../trace/format/trace-builder.ts';
import { decodeBatch, finishRun, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { clusterVariants, plannedRounds, roundPlan, runsPerRound, type RunSpec } from '../../../trace/format/run-request.ts';
import { UNTIL_CERTAIN_CHECKPOINTS } from '../../../trace/derive/paired-verdict.ts';
import type { IncompleteReason, RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { omittedMeasurements } from './incomplete-trace.ts';

export interface ModeProgress {
  mode: RunMode;
  n: number;
  /** Of the mode's current run (the repeat under way); 0 between repeats. */
  sent: number;
  replied: number;
  /** Latest event time of the current run, µs since its t0 (for the ETA). */
  lastUs: number;
  /**
   * Runs of this mode finished so far, of `runs` expected: the rounds asked for, or until certain
   * (`upTo`) the next checkpoint, where the backend may stop (at most `limit`). A run of ≥ 1 s ends the
   * request after its first round.
   */
  runsDone: number;
  runs: number;
  upTo: boolean;
  limit: number;
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
  /** Runs finished per mode. */
  private finishedModes = new Map<RunMode, number>();
  private tracesOfRequest = 0;

  get active(): ActiveRequest | null {
    if (!this.request) return null;
    const { spec } = this.request;
    const { n } = spec;
    const limit = plannedRounds(this.request.spec);
    const upTo = roundPlan(this.request.spec.repeats) === 'until-certain' && runsPerRound(this.request.spec) > 1;
    /** Until certain: the checkpoint the mode's next run counts towards. */
    const expected = (runsDone: number) => (upTo ? UNTIL_CERTAIN_CHECKPOINTS.find((k) => k > runsDone) ?? limit : limit);
    const progress: ModeProgress[] = this.request.spec.modes.map((mode) => {
      // A compared request runs a mode once per cluster variant a round: its rounds done are its runs over that.
      const runsDone = Math.floor((this.finishedModes.get(mode) ?? 0) / clusterVariants(spec, mode).length);
      const builder = [...this.builders.values()].find((b) => b.run.mode === mode);
      const p = builder?.progress;
      return { mode, n, sent: p?.sent ?? 0, replied: p?.replied ?? 0, lastUs: p?.lastUs ?? 0, runsDone, runs: expected(runsDone), upTo, limit, done: runsDone >= limit };
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

  /** Runs of the active request finished so far (0: its first trace, partial or whole, replaces the screen). */
  get finishedOfRequest(): number {
    return this.tracesOfRequest;
  }

  /**
   * The runs under way as far as they got, marked in-progress; none before a run's first event. Cheap
   * to call again: TraceBuilder.partial builds only the records new since the last call.
   */
  partialDocs(): TraceDocument[] {
    return [...this.builders.values()].filter((b) => b.progress.sent > 0).map((b) => b.partial(this.mark(b, 'in-progress')));
  }

  /** The connection went away: whatever was running is lost, but what it measured is kept, marked incomplete. */
  abandon(reason: string): TrackerEvent[] {
    if (!this.request) return [];
    const kept = this.keepUnderWay('connection-lost');
    this.end();
    return [...kept, { kind: 'failed', message: reason }];
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
        this.finishedModes.set(doc.run.mode, (this.finishedModes.get(doc.run.mode) ?? 0) + 1);
        const firstOfRequest = this.tracesOfRequest === 0;
        this.tracesOfRequest++;
        return [{ kind: 'trace', doc, firstOfRequest }];
      }
      case 'request-done':
        this.end();
        return [{ kind: 'finished', outcome: 'done' }];
      case 'cancelled': {
        const kept = this.keepUnderWay('cancelled');
        this.end();
        return [...kept, { kind: 'finished', outcome: 'cancelled' }];
      }
      case 'error': {
        const kept = this.keepUnderWay('failed', message.message);
        this.end();
        return [...kept, { kind: 'failed', message: message.message }];
      }
      default:
        return [];
    }
  }

  /** The runs under way, as incomplete traces (a run that never sent a command has nothing to keep). */
  private keepUnderWay(reason: Exclude<IncompleteReason, 'in-progress'>, message?: string): TrackerEvent[] {
    const events: TrackerEvent[] = [];
    for (const builder of this.builders.values()) {
      if (builder.progress.sent === 0) continue;
      events.push({ kind: 'trace', doc: builder.partial(this.mark(builder, reason, message)), firstOfRequest: this.tracesOfRequest++ === 0 });
    }
    this.builders.clear();
    return events;
  }

  private mark(builder: TraceBuilder, reason: IncompleteReason, message?: string): IncompleteMark {
    return { reason, ...(message === undefined ? {} : { message }), omitted: omittedMeasurements(builder.run, this.request?.spec ?? null) };
  }

  private end(): void {
    this.request = null;
    this.builders.clear();
    this.finishedModes.clear();
  }
}
