import { describe, expect, it } from 'vitest';
import { KERNEL_TCP_SOURCE, type TraceDocument } from '../../../trace/format/trace-format.ts';
import { memorySamples, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { memoryRepeatText, probeCostText, probesOf, probesText } from './probes-text.ts';

/** sequentialTrace(3) as if it had asked for (and got) memory samples and the kernel's TCP figures. */
function withProbes(kernelTcp: TraceDocument['kernelTcp']): TraceDocument {
  const doc = sequentialTrace(3);
  return { ...doc, run: { ...doc.run, probes: { ...doc.run.probes, memory: true, kernelTcp: true } }, memory: memorySamples([-100, 100], [-50]), kernelTcp };
}

describe('probesText', () => {
  it('names memory sampling and the kernel’s TCP figures (ss), or that ss gave none', () => {
    const figures = { source: KERNEL_TCP_SOURCE, segmentsOut: 3, segmentsIn: 3, dataSegmentsOut: 3, dataSegmentsIn: 3, bytesAcked: 1, bytesReceived: 1, retransmits: 0 } as const;
    expect(probesText(withProbes(figures))).toBe('probes: client socket · memory · kernel TCP (ss)');
    expect(probesText(withProbes({ source: KERNEL_TCP_SOURCE, unavailable: 'no ss' }))).toBe('probes: client socket · memory · kernel TCP unavailable');
    expect(probesOf(withProbes(null)).kernelTcp).toBe('off');
    expect(probesText(sequentialTrace(3))).toBe('probes: client socket only');
  });
});

describe('probeCostText', () => {
  const doc = sequentialTrace(3);
  const socket = { inRunUs: 7.9, events: 20 };
  const none = { inRunUs: 0, count: 0 };

  it('what each probe that ran cost the run, as the run measured it', () => {
    expect(probeCostText({ ...doc, probeCosts: { socket, flushes: none, kernelTcp: { setupUs: 12_400 } } })).toBe(
      'cost to the run: client socket 7.9 µs of its hooks (20 events) · kernel TCP (ss) 12.4 ms before and after, none inside it',
    );
    expect(probeCostText({ ...doc, probeCosts: { socket, flushes: none, monitor: { heldDuringRun: true, inRunUs: 0, lines: 10, setupUs: 900 } } })).toBe(
      'cost to the run: client socket 7.9 µs of its hooks (20 events) · MONITOR held: Redis wrote 10 lines to it, read after the last reply',
    );
    expect(probeCostText({
      ...doc,
      probeCosts: { socket, flushes: { inRunUs: 40, count: 2 }, monitor: { heldDuringRun: false, inRunUs: 310, lines: 2000, setupUs: 900 }, memory: { inRunUs: 3, clientSamples: 9, serverRequests: 8, setupUs: 150_000 } },
    })).toBe(
      'cost to the run: client socket 7.9 µs of its hooks (20 events) · 2 flushes of its events to the view, 40 µs · ' +
      'MONITOR read during the run (too many lines to hold): Redis wrote 2,000 lines to it, 310 µs reading them · ' +
      'memory sampler: 8 requests to Redis from its own thread, 9 heap readings here (3 µs)',
    );
  });

  it('nothing for a trace recorded before the costs were kept; a memory repeat says what its time is', () => {
    expect(probeCostText(doc)).toBeNull();
    expect(memoryRepeatText(doc)).toBeNull();
    expect(memoryRepeatText({ ...doc, run: { ...doc.run, memoryRepeat: true } })).toMatch(/^memory repeat: .*its time includes the sampler’s, and no comparison uses it$/);
  });
});
