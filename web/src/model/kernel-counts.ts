// Redis's system calls on the run's socket, counted from strace: read() calls, and write() + writev()
// calls. Only a server-traced run with strace has them; everything else gets null, never an estimate.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

export interface KernelCounts {
  reads: number;
  writes: number;
  /** epoll_wait calls that woke for the run's socket. */
  waits: number;
}

export function kernelCounts(doc: TraceDocument): KernelCounts | null {
  const calls = doc.serverTrace?.syscalls?.calls;
  if (!calls) return null;
  const counts: KernelCounts = { reads: 0, writes: 0, waits: 0 };
  for (const c of calls) {
    if (c.call === 'read') counts.reads++;
    else if (c.call === 'epoll_wait') counts.waits++;
    else counts.writes++;
  }
  return counts;
}
