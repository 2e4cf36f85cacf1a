// The neighbour client's latency over time, as the neighbour chart needs it: its commands bucketed by
// send time (at most maxBuckets, about two per pixel, so a 60 s neighbour at 20,000/s still draws in a
// few hundred segments), the time span to show (its first command, before t0, to its last, and at least
// the run's [0, durationUs]) and the run's span to mark. All times are µs since the run's t0.
import { neighborLatencyBuckets, type NeighborLatencyBucket } from '../../../trace/derive/neighbor-verdicts.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

export interface NeighborSeries {
  /** The x domain: from min(first send, 0) to max(last send, durationUs). */
  fromUs: number;
  toUs: number;
  /** The run: t0 to its last reply. */
  runToUs: number;
  buckets: NeighborLatencyBucket[];
  /** The highest and lowest latency of any command (µs): the y domain. */
  maxLatencyUs: number;
  minLatencyUs: number;
  commands: number;
}

/** null when the run had no neighbour, or the neighbour recorded no command. */
export function neighborSeries(doc: TraceDocument, maxBuckets: number): NeighborSeries | null {
  const commands = doc.neighbor?.commands ?? [];
  if (commands.length === 0) return null;
  const buckets = neighborLatencyBuckets(doc, Math.max(1, Math.min(commands.length, Math.floor(maxBuckets))));
  let maxLatencyUs = 0;
  let minLatencyUs = Infinity;
  for (const c of commands) {
    const latency = c.repliedUs - c.sentUs;
    if (latency > maxLatencyUs) maxLatencyUs = latency;
    if (latency < minLatencyUs) minLatencyUs = latency;
  }
  return {
    fromUs: Math.min(commands[0]!.sentUs, 0),
    toUs: Math.max(commands[commands.length - 1]!.sentUs, doc.totals.durationUs),
    runToUs: doc.totals.durationUs,
    buckets,
    maxLatencyUs,
    minLatencyUs,
    commands: commands.length,
  };
}
