// A depth sweep: at each depth, `repeats` chunked runs of `perPoint` commands in pipelines of that
// depth, each a full executeRun (same drivers, same probes, same INFO deltas, Redis's CPU time) but
// untraced and without memory sampling, so nothing of Pipescope's own sits between the client and Redis. Runs go
// in rounds, each depth once per round, the order alternating (sweepRunAt), so that repeat i of two
// depths form a pair for the verdicts between them; then, if asked, redis-benchmark at the same depths.
import { latencyStats } from '../../trace/derive/latency-stats.ts';
import { recorderInfo } from '../support/recorder-info.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { newRunId, executeRun } from './run-executor.ts';
import { driverClientName } from '../drivers/open-driver.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { REFERENCE_TOOL, SWEEP_FORMAT, SWEEP_FORMAT_VERSION, sweepRunAt, sweepRunCount, type SweepDocument, type SweepTool, type SweepInfo, type SweepPoint, type SweepSpec } from '../../trace/format/sweep-format.ts';
import { commandTakesValue } from '../../trace/format/run-request.ts';
import { runReference } from './redis-benchmark.ts';
import type { Recorder } from '../../trace/format/trace-builder.ts';
import type { RedisInfo } from '../../trace/format/trace-format.ts';

export interface SweepProgress {
  tool: SweepTool;
  depth: number;
  repeat: number;
  done: number;
  total: number;
  opsPerSec?: number;
}

export interface SweepListener {
  onStart?(header: { sweep: SweepInfo; redis: RedisInfo; recorder: Recorder }): void;
  onProgress?(progress: SweepProgress): void;
}

export async function executeSweep(session: RedisSession, spec: SweepSpec, listener: SweepListener = {}, signal?: AbortSignal): Promise<SweepDocument> {
  const valueBytes = commandTakesValue(spec.command) ? spec.valueBytes : 0;
  const sweep: SweepInfo = {
    id: newRunId(), startedAt: new Date().toISOString(), command: spec.command, valueBytes, engine: spec.engine,
    perPoint: spec.perPoint, repeats: spec.repeats, depths: spec.depths,
    rtt: { addedMs: spec.rttMs, jitterMs: spec.jitterMs }, serverTraced: false, order: 'rounds',
  };
  // Each depth's runs in round order: runs[i] is round i's.
  const points: SweepPoint[] = spec.depths.map((depth) => ({ depth, runs: [] }));
  const total = sweepRunCount(spec);
  let done = 0;
  const recorder = recorderInfo(driverClientName(spec.engine));
  listener.onStart?.({ sweep, redis: session.info, recorder });
  for (let k = 1; k <= spec.depths.length * spec.repeats; k++) {
    const { depth, repeat } = sweepRunAt(spec, k)!;
    if (signal?.aborted) throw new RunCancelledError('Sweep cancelled');
    const doc = await executeRun(session, 'chunked', {
      command: spec.command, n: spec.perPoint, valueBytes, chunk: depth, engine: spec.engine,
      rttMs: spec.rttMs, jitterMs: spec.jitterMs, serverTrace: false, memory: false,
    }, {}, signal);
    points.find((p) => p.depth === depth)!.runs.push({ totals: { durationUs: doc.totals.durationUs, opsPerSec: doc.totals.opsPerSec }, counts: doc.counts, latency: latencyStats(doc), ...(doc.serverCpu ? { serverCpu: doc.serverCpu } : {}) });
    listener.onProgress?.({ tool: 'pipescope', depth, repeat, done: ++done, total, opsPerSec: doc.totals.opsPerSec });
  }
  const reference = spec.reference
    ? await runReference(session, spec, sweep.id, (depth, repeat) => listener.onProgress?.({ tool: REFERENCE_TOOL, depth, repeat, done: ++done, total }), signal)
    : null;
  return {
    format: SWEEP_FORMAT,
    version: SWEEP_FORMAT_VERSION,
    sweep,
    redis: session.info,
    recorder,
    points,
    reference: reference && 'missing' in reference ? null : reference,
    ...(reference && 'missing' in reference ? { referenceMissing: reference.missing } : {}),
  };
}
