import { describe, expect, it } from 'vitest';
import { KERNEL_TCP_SOURCE, type KernelTcp, type TraceDocument } from '../../../trace/format/trace-format.ts';
import { asRepeat } from '../test-support/repeat-fixtures.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { kernelTcpLine, warmupNote, warmupText } from './connection-text.ts';

const tcp = (dataOut: number, dataIn: number, retransmits = 0): KernelTcp => ({
  source: KERNEL_TCP_SOURCE, segmentsOut: dataOut + dataIn, segmentsIn: dataIn + dataOut, dataSegmentsOut: dataOut, dataSegmentsIn: dataIn,
  bytesAcked: 560, bytesReceived: 41, retransmits,
});
const withTcp = (doc: TraceDocument, kernelTcp: KernelTcp | null): TraceDocument => ({ ...doc, kernelTcp });

describe('warmupText', () => {
  it('says how the connection was warmed before t0, or that it was cold', () => {
    const run = sequentialTrace(10).run;
    expect(warmupText({ ...run, warmup: { commands: 10, durationUs: 1234 } })).toBe('warm: 10 warm-up commands before t0, 1.23 ms');
    expect(warmupText({ ...run, warmup: { commands: 1, durationUs: 95 } })).toBe('warm: 1 warm-up command before t0, 95 µs');
    expect(warmupText(run)).toBe('cold connection: no warm-up');
    expect(warmupNote(run)).toMatch(/^No warm-up before t0: the run’s first command pays the connection’s first-call costs/);
  });
});

describe('kernelTcpLine', () => {
  it('sets commands beside write() calls, TCP segments and round trips, each with its source', () => {
    const line = kernelTcpLine([withTcp(pipelineTrace(10_000, 10_000, 2000), tcp(7, 5))]);
    expect(line && 'parts' in line && line.parts).toEqual([
      { text: '10,000 commands', source: null },
      { text: '1 write()', source: 'client socket' },
      { text: '7 TCP segments out (5 in, 0 retransmits)', source: 'kernel (ss)' },
      { text: '1 round trip', source: 'client socket' },
    ]);
    expect(line && 'detail' in line && line.detail).toBe(
      'Segments carrying data. All segments, ACKs included: 12 out, 12 in; payload bytes acknowledged by Redis 560, received 41.',
    );
  });

  it('gives median [min–max] over the repeats', () => {
    const seq = sequentialTrace(10);
    const line = kernelTcpLine([withTcp(asRepeat(seq, 0), tcp(10, 10)), withTcp(asRepeat(seq, 1), tcp(11, 10, 1)), withTcp(asRepeat(seq, 2), tcp(12, 10))]);
    expect(line && 'parts' in line && line.parts.map((p) => p.text)).toEqual([
      '10 commands', '10 write()', '11 [10–12] TCP segments out (10 in, 0 [0–1] retransmits)', '10 round trips',
    ]);
  });

  it('says why there are no figures, and nothing for a run that did not ask for them', () => {
    expect(kernelTcpLine([withTcp(sequentialTrace(3), { source: KERNEL_TCP_SOURCE, unavailable: 'ss is not installed' })])).toEqual({ unavailable: 'ss is not installed' });
    expect(kernelTcpLine([sequentialTrace(3)])).toBeNull();
    expect(kernelTcpLine([])).toBeNull();
  });
});
