import { describe, expect, it } from 'vitest';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { runSummaryLine } from './run-summary-line.ts';

describe('runSummaryLine', () => {
  it('names the run and labels every figure with its source', () => {
    const doc = sequentialTrace(10);
    const line = runSummaryLine(doc);
    expect(line.title).toBe('Sequential · 10 × INCR');
    expect(line.figures.map((f) => f.id)).toEqual(['duration', 'ops', 'writes', 'round-trips', 'redis-reads']);
    expect(line.figures.find((f) => f.id === 'round-trips')).toEqual({ id: 'round-trips', text: '10 round trips', source: 'client socket' });
    expect(line.figures.find((f) => f.id === 'writes')!.text).toBe(`${doc.counts.client.writes} socket writes`);
    for (const f of line.figures) expect(f.source.length).toBeGreaterThan(0);
  });

  it('one pipeline waits one round trip', () => {
    expect(runSummaryLine(pipelineTrace(10)).figures.find((f) => f.id === 'round-trips')!.text).toBe('1 round trip');
  });

  it('leaves out Redis INFO figures a run cut short did not measure', () => {
    const doc = sequentialTrace(4);
    const cut = { ...doc, incomplete: { reason: 'cancelled' as const, omitted: ['redis-info' as const] } } as unknown as typeof doc;
    expect(runSummaryLine(cut).figures.map((f) => f.id)).not.toContain('redis-reads');
  });
});
