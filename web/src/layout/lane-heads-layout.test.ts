import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { formatUs } from '../format/number-format.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { proxiedTrace, sequentialTrace, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { DENSITY_ROW_PX } from './density-layout.ts';
import { laneHeads } from './lane-heads-layout.ts';

const withProbes = (doc: TraceDocument, probes: Partial<TraceDocument['run']['probes']>): TraceDocument => ({ ...doc, run: { ...doc.run, probes: { ...doc.run.probes, ...probes } } });

describe('laneHeads', () => {
  it('names the client and Redis, and says when Redis\'s times were not traced', () => {
    const heads = laneHeads(traceColumns(sequentialTrace(3)), 'svg');
    expect(heads).toEqual({
      client: 'Client · ioredis 6.0.0',
      clientNote: 'lane: socket writes & reads',
      server: 'Redis 7.0.15',
      serverNote: '— execution times not traced in this run',
      serverLaneNote: null,
      densityNote: null,
    });
  });

  it('drops the client\'s parenthesised detail, which the head has no room for', () => {
    const doc = sequentialTrace(1);
    const raw = { ...doc, recorder: { ...doc.recorder, client: 'raw socket (pre-encoded RESP; one write per batch)' } };
    expect(laneHeads(traceColumns(raw), 'svg').client).toBe('Client · raw socket');
  });

  it('says how to read the density bands in canvas mode', () => {
    const heads = laneHeads(traceColumns(sequentialTrace(3)), 'canvas');
    expect(heads.clientNote).toBe('lane: in flight ▮, socket writes & reads');
    expect(heads.densityNote).toBe(`each ${DENSITY_ROW_PX} px row: requests → · ← replies · longer, darker = more`);
  });

  it('says where a proxied run\'s arrows end', () => {
    expect(laneHeads(traceColumns(proxiedTrace()), 'svg').serverNote).toBe('— arrows end at the delay proxy’s hand-over to Redis');
  });

  it('names a server-traced run\'s probes: MONITOR with its clock, and strace on, off or unavailable', () => {
    const traced = traceColumns(serverTracedSequential(2));
    const heads = laneHeads(traced, 'svg');
    expect(heads.serverNote).toBe(`◆ executions from MONITOR, clock ±${formatUs(traced.clockUncertaintyUs)}`);
    expect(heads.serverLaneNote).toBe('▯ syscalls: strace');
    // Canvas mode: the density note needs the line.
    expect(laneHeads(traced, 'canvas').serverLaneNote).toBeNull();
    expect(laneHeads(traceColumns(serverTracedSequential(2, false)), 'svg').serverLaneNote).toBe('strace off');
    expect(laneHeads(traceColumns(withProbes(serverTracedSequential(2, false), { strace: true })), 'svg').serverLaneNote).toBe('strace unavailable');
    expect(laneHeads(traceColumns(withProbes(serverTracedSequential(2), { monitor: false })), 'svg').serverNote).toBe('— execution times not traced (MONITOR off)');
  });
});
