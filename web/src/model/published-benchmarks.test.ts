import { describe, expect, it } from 'vitest';
import { RunSpecSchema } from '../../../trace/format/run-request.ts';
import { PUBLISHED_BENCHMARKS, TIMESTAMP_VALUE_BYTES, publishedBenchmark } from './published-benchmarks.ts';

describe('PUBLISHED_BENCHMARKS', () => {
  it.each(PUBLISHED_BENCHMARKS.map((b) => [b.id, b] as const))('%s: its spec is a valid run request, unchanged by the schema', (_id, b) => {
    const parsed = RunSpecSchema.safeParse(b.spec);
    expect(parsed.success ? null : parsed.error.issues).toBeNull();
    expect(parsed.data).toEqual(b.spec);
  });

  it('holds the figures the sources published, and ratios that follow from them', () => {
    const rows = PUBLISHED_BENCHMARKS.map((b) => [b.id, b.spec.command, b.spec.n, b.figures?.sequentialMs ?? null, b.figures?.pipelineMs ?? null, b.figures?.ratioText ?? null]);
    expect(rows).toEqual([
      ['tair-incr', 'INCR', 5000, 5844, 78, '~75×'],
      ['docs-ping', 'PING', 10_000, 1185, 251, '~4.7×'],
      ['blog-ping', 'PING', 10_000, 263.6, 9.6, '~27×'],
      ['tencent-set', 'SET', 10_000, null, null, '16.8×'],
      ['docs-netcat', 'PING', 3, null, null, null],
    ]);
    for (const b of PUBLISHED_BENCHMARKS) {
      const f = b.figures;
      if (!f || f.sequentialMs === null) continue;
      // A ratio computed from two times prints rounded, as the sources round it.
      expect(f.ratioText).toBe(`${f.ratioText.startsWith('~') ? '~' : ''}${f.ratio >= 10 ? Math.round(f.ratio) : f.ratio.toFixed(1)}×`);
      if (f.sequentialMs !== null && f.pipelineMs !== null) expect(f.ratio).toBe(f.sequentialMs / f.pipelineMs);
    }
    expect(publishedBenchmark('tencent-set').figures?.ratio).toBe(16.8);
  });

  it('prints each time as the source does, the same value as the figure', () => {
    const ms = (text: string) => Number(text.replace(/,/g, '').replace(/ (ms|s)$/, '')) * (text.endsWith(' s') ? 1000 : 1);
    for (const b of PUBLISHED_BENCHMARKS) {
      const f = b.figures;
      if (!f?.sequentialText || !f.pipelineText) continue;
      expect(ms(f.sequentialText)).toBeCloseTo(f.sequentialMs!, 9);
      expect(ms(f.pipelineText)).toBeCloseTo(f.pipelineMs!, 9);
    }
  });

  it('runs both modes through ioredis, except the netcat example: 3 inline PINGs in one write on a raw socket', () => {
    for (const b of PUBLISHED_BENCHMARKS.filter((b) => b.id !== 'docs-netcat')) {
      expect(b.spec.modes).toEqual(['sequential', 'pipeline']);
      expect(b.spec.engine).toBe('ioredis');
      expect(b.spec.rttMs).toBe(0);
    }
    expect(publishedBenchmark('docs-netcat').spec).toMatchObject({ command: 'PING', n: 3, engine: 'raw', modes: ['pipeline'] });
  });

  it('sends the Tencent SETs a value of a timestamp’s size, 16–20 bytes, and says it is not a timestamp', () => {
    const b = publishedBenchmark('tencent-set');
    expect(b.spec.valueBytes).toBe(TIMESTAMP_VALUE_BYTES);
    expect(TIMESTAMP_VALUE_BYTES).toBeGreaterThanOrEqual(16);
    expect(TIMESTAMP_VALUE_BYTES).toBeLessThanOrEqual(20);
    expect(b.caveat).toMatch(/not a timestamp/);
  });
});
