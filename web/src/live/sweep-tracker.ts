// Follows one depth-sweep request through the live protocol: queue position, the sweep's header,
// each finished run's ops/s as sweep-progress reports it (so points appear while the sweep runs), and
// the finished document at sweep-end, held to the same rules as a sweep file (verifySweep). No
// socket and no DOM here, so the message flow is unit-tested. Invariant: at most one sweep per tab.
import type { ServerMessage } from '../../../trace/live-protocol.ts';
import { TraceError } from '../../../trace/trace-builder.ts';
import type { Recorder } from '../../../trace/trace-builder.ts';
import type { RedisInfo } from '../../../trace/trace-format.ts';
import { verifySweep } from '../../../trace/sweep-io.ts';
import type { SweepDocument, SweepInfo, SweepSpec } from '../../../trace/sweep-format.ts';

export type SweepTool = 'pipescope' | 'redis-benchmark';

/** The runs finished so far at one depth: their ops/s, in the order they finished. */
export interface LivePoint {
  depth: number;
  opsPerSec: number[];
}

export interface ActiveSweep {
  requestId: string;
  spec: SweepSpec;
  /** Requests ahead of this one; 0 = running now; null = not yet acknowledged. */
  position: number | null;
  cancelling: boolean;
  header: { sweep: SweepInfo; redis: RedisInfo; recorder: Recorder } | null;
  /** Runs finished, of total (Pipescope's and redis-benchmark's together). */
  done: number;
  total: number;
  /** The run that finished last, as sweep-progress named it. */
  last: { tool: SweepTool; depth: number; repeat: number } | null;
  ours: readonly LivePoint[];
  /** Filled only if the backend reports redis-benchmark's ops/s with its progress. */
  reference: readonly LivePoint[];
}

export type SweepTrackerEvent =
  | { kind: 'document'; doc: SweepDocument }
  | { kind: 'finished'; outcome: 'done' | 'cancelled' }
  | { kind: 'failed'; message: string };

/** Runs a spec asks for: each depth × repeats, twice over with the reference. */
export function totalRuns(spec: Pick<SweepSpec, 'depths' | 'repeats' | 'reference'>): number {
  return spec.depths.length * spec.repeats * (spec.reference ? 2 : 1);
}

/**
 * Which run is the k-th (1-based) of a sweep: the backend goes depth by depth, repeat by repeat, then
 * redis-benchmark over the same depths. Null past the end.
 */
export function runAt(spec: Pick<SweepSpec, 'depths' | 'repeats' | 'reference'>, k: number): { tool: SweepTool; depth: number; repeat: number } | null {
  const perTool = spec.depths.length * spec.repeats;
  if (!Number.isInteger(k) || k < 1 || k > totalRuns(spec)) return null;
  const tool: SweepTool = k > perTool ? 'redis-benchmark' : 'pipescope';
  const i = (k - 1) % perTool;
  return { tool, depth: spec.depths[Math.floor(i / spec.repeats)]!, repeat: (i % spec.repeats) + 1 };
}

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
      done: 0, total: totalRuns(spec), last: null, ours: [], reference: [],
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
