// Words for the memory samples: where each series was measured, and the note on gaps — stretches
// without samples, because the sampler runs on the client's event loop and takes none while that loop
// is busy, and asks Redis one request at a time. Every figure comes from the trace.
import type { Memory } from '../../../trace/format/trace-format.ts';
import { gapThresholdUs, sampleGaps, type SampleGap } from '../model/memory-series.ts';
import { formatUs, plural } from './number-format.ts';

export const SERVER_MEMORY_SOURCE_TEXT = 'Redis CLIENT LIST / INFO memory';
export const CLIENT_MEMORY_SOURCE_TEXT = 'client process (Node process.memoryUsage)';

export interface MemoryGaps {
  client: SampleGap[];
  server: SampleGap[];
  thresholdUs: number;
}

export function memoryGaps(memory: Memory, endUs: number): MemoryGaps {
  const thresholdUs = gapThresholdUs(memory);
  return {
    client: sampleGaps(memory.client.samples.map((s) => s.atUs), thresholdUs, endUs),
    server: sampleGaps(memory.server.samples.map((s) => s.atUs), thresholdUs, endUs),
    thresholdUs,
  };
}

function gapsText(who: string, gaps: SampleGap[], sampled: number): string {
  if (sampled === 0) return `${who}: no samples`;
  const total = gaps.reduce((sum, g) => sum + g.toUs - g.fromUs, 0);
  const longest = gaps.reduce((a, b) => (b.toUs - b.fromUs > a.toUs - a.fromUs ? b : a));
  const from = longest.fromUs === 0 ? 't0' : formatUs(longest.fromUs);
  const where = gaps.length === 1 ? `from ${from}` : `longest ${formatUs(longest.toUs - longest.fromUs)} from ${from}`;
  return `${who}: ${plural(gaps.length, 'gap')}, ${formatUs(total)} in all (${where})`;
}

/**
 * "No samples — client: 1 gap, 1.2 s in all (from 120 ms); Redis: …", why there are none then (for each
 * side that has gaps), or null when every interval was sampled.
 */
export function memoryGapNote(memory: Memory, endUs: number): string | null {
  const gaps = memoryGaps(memory, endUs);
  const parts: string[] = [];
  if (gaps.client.length > 0) parts.push(gapsText('client', gaps.client, memory.client.samples.length));
  if (gaps.server.length > 0) parts.push(gapsText('Redis', gaps.server, memory.server.samples.length));
  if (parts.length === 0) return null;
  const why: string[] = [];
  if (gaps.client.length > 0) why.push("The sampler runs on the client's event loop, so it takes none while the client is busy (encoding or parsing a large pipeline).");
  if (gaps.server.length > 0) why.push('Redis is asked on a separate connection, one request at a time, so a busy client or Redis delays its next sample.');
  return (
    `No samples — ${parts.join('; ')}. ${why.join(' ')} Lines are not drawn across gaps over ${formatUs(gaps.thresholdUs)} ` +
    `(${gaps.thresholdUs / (memory.intervalMs * 1000)} × the ${formatUs(memory.intervalMs * 1000)} interval).`
  );
}
