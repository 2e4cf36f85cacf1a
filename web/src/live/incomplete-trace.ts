// What a run cut short (or still streaming) can say of itself: the measurements that need the whole run
// and so are left out of its partial trace (trace-format.ts IncompleteSchema), from what the run asked
// for. The INFO deltas are always among them: the backend takes them only once a run has finished.
import type { RunSpec } from '../../../trace/format/run-request.ts';
import type { OmittedMeasurement, RunInfo } from '../../../trace/format/trace-format.ts';

/** Modes whose keys are read back after a whole run (server/runs/run-executor.ts KEYS_AFTER_MODES). */
const KEYS_AFTER_MODES: readonly RunInfo['mode'][] = ['multi', 'eval', 'evalsha'];

export function omittedMeasurements(run: RunInfo, spec: Pick<RunSpec, 'neighborRate'> | null): OmittedMeasurement[] {
  const { probes } = run;
  const omitted: OmittedMeasurement[] = ['redis-info'];
  if (probes.monitor) omitted.push('monitor');
  if (probes.strace) omitted.push('strace');
  if (probes.memory) omitted.push('memory');
  if (probes.kernelTcp) omitted.push('kernel-tcp');
  if (run.injectedError || KEYS_AFTER_MODES.includes(run.mode)) omitted.push('keys-after');
  if ((spec?.neighborRate ?? 0) > 0) omitted.push('neighbor');
  if (probes.heldConnection) omitted.push('held-connection');
  return omitted;
}
