// The shape of a depth sweep while it runs: what the live tracker (live/sweep-tracker.ts) has heard so
// far, and what the chart, the table and the progress line read. Types only, here in the model so that
// the layers below live/ (model, format) can read a running sweep without importing live/.
import type { Recorder } from '../../../trace/format/trace-builder.ts';
import type { RedisInfo } from '../../../trace/format/trace-format.ts';
import type { SweepInfo, SweepSpec, SweepStep } from '../../../trace/format/sweep-format.ts';

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
  last: SweepStep | null;
  /** Sorted by depth (increasing). */
  ours: readonly LivePoint[];
  /** Filled only if the backend reports redis-benchmark's ops/s with its progress; sorted by depth. */
  reference: readonly LivePoint[];
}
