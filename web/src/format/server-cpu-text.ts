// Redis's CPU time over a run (trace serverCpu), each figure with its source: the kernel's count for
// Pipescope's own redis-server (exact, free for Redis), or INFO cpu for any other (only for runs long
// enough to carry INFO's own work; otherwise the reason). Per command too: the figure the depth sweep
// sets beside Redis's reads per command.
import type { ServerCpu, TraceDocument } from '../../../trace/format/trace-format.ts';

export const SERVER_CPU_SOURCE_TEXT: Record<ServerCpu['source'], string> = {
  'proc-schedstat': 'kernel (schedstat), Redis’s main thread',
  'redis-info-cpu': 'Redis INFO cpu',
};

/** The measured total (µs), or null when the run has none (older traces, or INFO could not carry it). */
export function serverCpuUs(doc: TraceDocument): number | null {
  const cpu = doc.serverCpu;
  return cpu && 'totalUs' in cpu ? cpu.totalUs : null;
}

/** Why a run has no Redis CPU figure, when it says: "Redis CPU: not measured: the run took under 10 ms: …". */
export function serverCpuNote(doc: TraceDocument): string | null {
  const cpu = doc.serverCpu;
  return cpu && 'unavailable' in cpu ? `Redis CPU not measured (${SERVER_CPU_SOURCE_TEXT[cpu.source]}): ${cpu.unavailable}.` : null;
}
