// How much CPU Redis spent on a run. On Pipescope's own redis-server the kernel's count for its main
// thread, /proc/<pid>/task/<pid>/schedstat (first field: ns on a CPU), read here at t0 and after the last
// reply: exact to the ns, and it costs Redis nothing (one pread by this process, on a file kept open,
// before t0 and after the run). Both readings follow a reply Redis had written, so its thread was done
// with its turn. Elsewhere, INFO cpu's used_cpu_{user,sys}_main_thread (getrusage) from the run's two
// INFO snapshots, which the run takes anyway: their sum is µs-exact on Linux, but it holds part of those
// two INFO calls' own work (tens of µs here), so it is kept only for runs long enough to carry it. The
// user/system split is the kernel's proration of tick samples (4 ms here): meaningful only over tens
// of ms, and said so where it is shown. /proc/<pid>/stat counts whole 10 ms ticks: useless for a run.
import { closeSync, openSync, readSync } from 'node:fs';
import type { ServerCpu } from '../../trace/format/trace-format.ts';
import type { ServerSnapshot } from './server-counters.ts';

/** Runs shorter than this (µs) get no INFO cpu figure: the INFO calls' own work would be as large. */
export const INFO_CPU_MIN_RUN_US = 10_000;

export class SchedstatReader {
  private readonly buffer = Buffer.alloc(96);

  private constructor(private readonly fd: number) {}

  /** The redis-server's main-thread counter, or undefined where /proc has none (not Linux, no such pid). */
  static open(pid: number): SchedstatReader | undefined {
    try {
      const reader = new SchedstatReader(openSync(`/proc/${pid}/task/${pid}/schedstat`, 'r'));
      reader.readNs();
      return reader;
    } catch {
      return undefined;
    }
  }

  /** ns the thread has run on a CPU since it started. */
  readNs(): bigint {
    const length = readSync(this.fd, this.buffer, 0, this.buffer.length, 0);
    const text = this.buffer.toString('latin1', 0, length);
    const end = text.indexOf(' ');
    return BigInt(text.slice(0, end < 0 ? undefined : end).trim());
  }

  close(): void {
    closeSync(this.fd);
  }
}

/** The run's figure from two schedstat readings (ns), with INFO's user/system split beside it when the run was long enough. */
export function schedstatCpu(beforeNs: bigint, afterNs: bigint, infoBefore: ServerSnapshot, infoAfter: ServerSnapshot, durationUs: number): ServerCpu {
  return { source: 'proc-schedstat', totalUs: Number(afterNs - beforeNs) / 1000, ...infoSplit(infoBefore, infoAfter, durationUs) };
}

/** The run's figure from INFO cpu alone, or why there is none. */
export function infoCpu(infoBefore: ServerSnapshot, infoAfter: ServerSnapshot, durationUs: number): ServerCpu {
  const before = infoBefore.cpu;
  const after = infoAfter.cpu;
  if (!before || !after) return { source: 'redis-info-cpu', unavailable: 'this Redis reports no CPU time in INFO' };
  if (durationUs < INFO_CPU_MIN_RUN_US) {
    return { source: 'redis-info-cpu', unavailable: `the run took under ${INFO_CPU_MIN_RUN_US / 1000} ms: INFO's own work would be as large as the run's` };
  }
  const userUs = Math.max(0, after.userUs - before.userUs);
  const systemUs = Math.max(0, after.systemUs - before.systemUs);
  return { source: 'redis-info-cpu', totalUs: userUs + systemUs, userUs, systemUs };
}

function infoSplit(infoBefore: ServerSnapshot, infoAfter: ServerSnapshot, durationUs: number): { userUs?: number; systemUs?: number } {
  const before = infoBefore.cpu;
  const after = infoAfter.cpu;
  if (!before || !after || durationUs < INFO_CPU_MIN_RUN_US) return {};
  return { userUs: Math.max(0, after.userUs - before.userUs), systemUs: Math.max(0, after.systemUs - before.systemUs) };
}
