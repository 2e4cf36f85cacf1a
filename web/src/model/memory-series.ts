// The memory samples of a trace as series to draw and compare: one column of times and one of bytes
// per measured quantity, each series' peak, and the gaps where no sample was taken (the sampler runs on
// the client's event loop, which a huge pipeline keeps busy encoding or parsing). Pure, unit-tested.
import type { Memory, TraceDocument } from '../../../trace/format/trace-format.ts';

/** Redis's view of the run connection and its whole allocation; the client process's RSS and heap. */
export const SERVER_SERIES = ['totMem', 'omem', 'qbuf', 'usedMemory'] as const;
export const CLIENT_SERIES = ['heapUsed', 'rss'] as const;
export type ServerSeriesKey = (typeof SERVER_SERIES)[number];
export type ClientSeriesKey = (typeof CLIENT_SERIES)[number];
export type MemorySeriesKey = ServerSeriesKey | ClientSeriesKey;

/** A gap longer than this many sampling intervals is drawn as a gap: no line is drawn across it. */
export const GAP_INTERVALS = 5;

export interface MemorySeries {
  key: MemorySeriesKey;
  /** Ascending µs since t0 (the order the samples were taken in). */
  atUs: readonly number[];
  bytes: readonly number[];
}

export interface Peak {
  bytes: number;
  atUs: number;
}

export interface SampleGap {
  fromUs: number;
  toUs: number;
}

export function memorySeries(memory: Memory, key: MemorySeriesKey): MemorySeries {
  if (isServerKey(key)) {
    const samples = memory.server.samples;
    return { key, atUs: samples.map((s) => s.atUs), bytes: samples.map((s) => s[key]) };
  }
  const samples = memory.client.samples;
  return { key, atUs: samples.map((s) => s.atUs), bytes: samples.map((s) => s[key]) };
}

function isServerKey(key: MemorySeriesKey): key is ServerSeriesKey {
  return (SERVER_SERIES as readonly string[]).includes(key);
}

/** The largest sample (the first one, on a tie), or null when there are no samples. */
export function seriesPeak(series: MemorySeries): Peak | null {
  let best = -1;
  for (let i = 0; i < series.bytes.length; i++) if (best < 0 || series.bytes[i]! > series.bytes[best]!) best = i;
  return best < 0 ? null : { bytes: series.bytes[best]!, atUs: series.atUs[best]! };
}

export function memoryPeak(memory: Memory, key: MemorySeriesKey): Peak | null {
  return seriesPeak(memorySeries(memory, key));
}

/** Longest interval between samples still drawn as a line, µs. */
export function gapThresholdUs(memory: Memory): number {
  return GAP_INTERVALS * memory.intervalMs * 1000;
}

/**
 * Stretches of [0, endUs] without a sample for longer than thresholdUs: between two samples, before
 * the first and after the last. No samples at all is one gap over the whole run. A sample taken before
 * t0 (the baseline, negative atUs) tells the level at t0: it counts as a sample at 0, and the time
 * before t0 is no part of the run's.
 */
export function sampleGaps(samplesUs: readonly number[], thresholdUs: number, endUs: number): SampleGap[] {
  const gaps: SampleGap[] = [];
  const atUs = samplesUs.some((t) => t < 0) ? [0, ...samplesUs.filter((t) => t >= 0)] : samplesUs;
  if (atUs.length === 0) return endUs > 0 ? [{ fromUs: 0, toUs: endUs }] : [];
  if (atUs[0]! > thresholdUs) gaps.push({ fromUs: 0, toUs: atUs[0]! });
  for (let i = 1; i < atUs.length; i++) if (atUs[i]! - atUs[i - 1]! > thresholdUs) gaps.push({ fromUs: atUs[i - 1]!, toUs: atUs[i]! });
  const last = atUs.at(-1)!;
  if (endUs - last > thresholdUs) gaps.push({ fromUs: last, toUs: endUs });
  return gaps;
}

/** The memory chart's plots and the series each draws (views/memory-chart-view.tsx lays them out). */
export const MEMORY_PLOTS = {
  connection: ['totMem', 'qbuf', 'omem'],
  used: ['usedMemory'],
  client: ['heapUsed', 'rss'],
} as const satisfies Record<string, readonly MemorySeriesKey[]>;
export type MemoryPlotId = keyof typeof MEMORY_PLOTS;

/**
 * For runs compared side by side, each plot's highest peak over all of them, bytes: the top of one byte
 * scale they share, so that 74.5 MiB and 7.5 MiB do not fill their plots alike. 0 for a plot no run sampled.
 */
export function sharedMemoryTops(docs: readonly TraceDocument[]): Record<MemoryPlotId, number> {
  const top = (keys: readonly MemorySeriesKey[]) =>
    Math.max(0, ...docs.flatMap((d) => (d.memory ? keys.map((k) => memoryPeak(d.memory!, k)?.bytes ?? 0) : [])));
  return { connection: top(MEMORY_PLOTS.connection), used: top(MEMORY_PLOTS.used), client: top(MEMORY_PLOTS.client) };
}
