// Follows one depth-sweep request through the live protocol: queue position, the sweep's header,
// each finished run's ops/s as sweep-progress reports it (so points appear while the sweep runs), and
// the finished document at sweep-end, held to the same rules as a sweep file (verifySweep). No
// socket and no DOM here, so the message flow is unit-tested. Invariant: at most one sweep per tab.
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { TraceError } from '../../../trace/format/trace-builder.ts';
import { verifySweep } from '../../../trace/format/sweep-io.ts';
import { sweepRunCount, type SweepDocument, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import type { ActiveSweep, LivePoint } from '../model/active-sweep.ts';

export type SweepTrackerEvent =
  | { kind: 'document'; doc: SweepDocument }
  | { kind: 'finished'; outcome: 'done' | 'cancelled' }
  | { kind: 'failed'; message: string };

function withRun(points: readonly LivePoint[], depth: number, opsPerSec: number): LivePoint[] {
  const found = points.some((p) => p.depth === depth);
  const next = found ? points.map((p) => (p.depth === depth ? { depth, opsPerSec: [...p.opsPerSec, opsPerSec] } : p)) : [...points, { depth, opsPerSec: [opsPerSec] }];
  return next.sort((a, b) => a.depth - b.depth);
}

export class SweepTracker {
  private request: ActiveSweep | null = null;

  get active(): ActiveSweep | null {
    return this.request;
  }

  begin(requestId: string, spec: SweepSpec): void {
    this.request = {
      requestId, spec, position: null, cancelling: false, header: null,
      done: 0, total: sweepRunCount(spec), last: null, ours: [], reference: [],
    };
  }

  markCancelling(): void {
    if (this.request) this.request = { ...this.request, cancelling: true };
  }

  /** The connection went away: the sweep is lost. */
  abandon(reason: string): SweepTrackerEvent[] {
    if (!this.request) return [];
    this.request = null;
    return [{ kind: 'failed', message: reason }];
  }

  /** Folds one validated message into the sweep; returns what the app should react to. */
  handle(message: ServerMessage): SweepTrackerEvent[] {
    const request = this.request;
    if (!request || !('requestId' in message) || message.requestId !== request.requestId) return [];
    switch (message.type) {
      case 'queued':
        this.request = { ...request, position: message.position };
        return [];
      case 'sweep-start':
        this.request = { ...request, position: 0, header: { sweep: message.sweep, redis: message.redis, recorder: message.recorder } };
        return [];
      case 'sweep-progress': {
        const { tool, depth, repeat, done, total, opsPerSec } = message;
        const next: ActiveSweep = { ...request, position: 0, done, total, last: { tool, depth, repeat } };
        if (opsPerSec !== undefined) {
          if (tool === 'pipescope') next.ours = withRun(request.ours, depth, opsPerSec);
          else next.reference = withRun(request.reference, depth, opsPerSec);
        }
        this.request = next;
        return [];
      }
      case 'sweep-end':
        try {
          return [{ kind: 'document', doc: verifySweep(message.document) }];
        } catch (error) {
          if (!(error instanceof TraceError)) throw error;
          this.request = null;
          return [{ kind: 'failed', message: `The sweep the backend sent is not valid: ${error.message}` }];
        }
      case 'request-done':
        this.request = null;
        return [{ kind: 'finished', outcome: 'done' }];
      case 'cancelled':
        this.request = null;
        return [{ kind: 'finished', outcome: 'cancelled' }];
      case 'error':
        this.request = null;
        return [{ kind: 'failed', message: message.message }];
      default:
        return [];
    }
  }
}
