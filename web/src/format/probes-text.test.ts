import { describe, expect, it } from 'vitest';
import { KERNEL_TCP_SOURCE, type TraceDocument } from '../../../trace/format/trace-format.ts';
import { memorySamples, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { probesOf, probesText } from './probes-text.ts';

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
