// Which probes recorded a run, from what the run asked for (run.probes) and what it got: the client
// socket always; the delay proxy when the run went through it; MONITOR and strace, each its own choice
// (strace may have been unavailable); memory samples; the kernel's TCP figures (ss; may have been
// unavailable). And what they cost it, as the run measured (probeCosts): time inside the run, time
// around it, and what ran only on Redis's side.
import type { ProbeCosts, TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatCount, formatUs, plural } from './number-format.ts';

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

/**
 * What the probes cost this run, as it measured them: "cost to the run: client socket 8 µs of its hooks
 * (20 events) · kernel TCP (ss) 12 ms before and after, none inside it". Null for traces recorded
 * before probes' costs were kept.
 */
export function probeCostText(doc: TraceDocument): string | null {
  const costs = doc.probeCosts;
  if (!costs) return null;
  const parts = [`client socket ${formatUs(costs.socket.inRunUs)} of its hooks (${plural(costs.socket.events, 'event')})`];
  if (costs.flushes.count > 0) parts.push(`${plural(costs.flushes.count, 'flush', 'flushes')} of its events to the view, ${formatUs(costs.flushes.inRunUs)}`);
  if (costs.monitor) parts.push(monitorCost(costs.monitor));
  if (costs.strace) parts.push(`strace stopped Redis at each of its ${formatCount(costs.strace.syscalls)} system calls on the run's socket`);
  if (costs.memory) parts.push(memoryCost(costs.memory));
  if (costs.kernelTcp) parts.push(`kernel TCP (ss) ${formatUs(costs.kernelTcp.setupUs)} before and after, none inside it`);
  return `cost to the run: ${parts.join(' · ')}`;
}

function monitorCost(monitor: NonNullable<ProbeCosts['monitor']>): string {
  const lines = `Redis wrote ${plural(monitor.lines, 'line')} to it`;
  return monitor.heldDuringRun
    ? `MONITOR held: ${lines}, read after the last reply`
    : `MONITOR read during the run (too many lines to hold): ${lines}, ${formatUs(monitor.inRunUs)} reading them`;
}

function memoryCost(memory: NonNullable<ProbeCosts['memory']>): string {
  return `memory sampler: ${plural(memory.serverRequests, 'request')} to Redis from its own thread, ` +
    `${plural(memory.clientSamples, 'heap reading')} here (${formatUs(memory.inRunUs)})`;
}

/**
 * A memory repeat (run.memoryRepeat) says what its time is: "memory repeat: sampled on purpose after the
 * timed runs; its time includes the sampler's and is not compared". Null for any other run.
 */
export function memoryRepeatText(doc: TraceDocument): string | null {
  return doc.run.memoryRepeat ? 'memory repeat: run once more after the timed runs to sample memory; its time includes the sampler’s, and no comparison uses it' : null;
}
