// Which probes recorded a run, from what the run asked for (run.probes) and what it got: the client
// socket always; the delay proxy when the run went through it; MONITOR and strace, each its own choice
// (strace may have been unavailable); memory samples; the kernel's TCP figures (ss; may have been
// unavailable).
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

export interface Probes {
  proxy: boolean;
  monitor: boolean;
  /** 'on' = syscalls recorded; 'unavailable' = asked for but strace could not be used; 'off' = not asked for. */
  strace: 'on' | 'unavailable' | 'off';
  memory: boolean;
  /** 'on' = figures recorded; 'unavailable' = asked for but ss gave none; 'off' = not asked for. */
  kernelTcp: 'on' | 'unavailable' | 'off';
}

export function probesOf(doc: TraceDocument): Probes {
  const asked = doc.run.probes;
  const tcp = doc.kernelTcp;
  return {
    proxy: doc.proxy !== null,
    monitor: asked.monitor,
    strace: !asked.strace ? 'off' : doc.serverTrace?.syscalls ? 'on' : 'unavailable',
    memory: asked.memory && doc.memory !== null,
    kernelTcp: !asked.kernelTcp || tcp === null ? 'off' : 'unavailable' in tcp ? 'unavailable' : 'on',
  };
}

/** "probes: client socket · MONITOR · strace · memory · kernel TCP (ss)", "probes: client socket only", … */
export function probesText(doc: TraceDocument): string {
  const p = probesOf(doc);
  // An observed connection is measured where it passes the observing proxy, not in its client.
  const parts = [doc.run.observed ? 'observing proxy' : 'client socket'];
  if (p.proxy && !doc.run.observed) parts.push('delay proxy');
  if (p.monitor) parts.push('MONITOR');
  if (p.strace === 'on') parts.push('strace');
  if (p.strace === 'unavailable') parts.push('strace unavailable');
  if (p.memory) parts.push('memory');
  if (p.kernelTcp === 'on') parts.push('kernel TCP (ss)');
  if (p.kernelTcp === 'unavailable') parts.push('kernel TCP unavailable');
  return parts.length === 1 ? 'probes: client socket only' : `probes: ${parts.join(' · ')}`;
}
