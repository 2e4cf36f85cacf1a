// Which probes recorded a run, for its header: the client socket always; the delay proxy when the run
// went through it; MONITOR and strace when the run was server-traced (strace may have been unavailable).
import type { TraceDocument } from '../../../trace/trace-format.ts';

export interface Probes {
  proxy: boolean;
  monitor: boolean;
  /** 'on' = syscalls recorded; 'unavailable' = server-traced but strace could not be used; 'off' = not traced. */
  strace: 'on' | 'unavailable' | 'off';
}

export function probesOf(doc: TraceDocument): Probes {
  const server = doc.serverTrace;
  return {
    proxy: doc.proxy !== null,
    monitor: server !== null,
    strace: server === null ? 'off' : server.syscalls ? 'on' : 'unavailable',
  };
}

/** "probes: client socket · MONITOR · strace", "probes: client socket only", … */
export function probesText(doc: TraceDocument): string {
  const p = probesOf(doc);
  const parts = ['client socket'];
  if (p.proxy) parts.push('delay proxy');
  if (p.monitor) parts.push('MONITOR');
  if (p.strace === 'on') parts.push('strace');
  if (p.strace === 'unavailable') parts.push('strace unavailable');
  return parts.length === 1 ? 'probes: client socket only' : `probes: ${parts.join(' · ')}`;
}
