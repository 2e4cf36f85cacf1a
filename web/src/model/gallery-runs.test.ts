import { describe, expect, it } from 'vitest';
import { galleryPair, galleryTrace } from '../test-support/gallery-fixtures.ts';
import { sequentialTrace } from '../test-support/trace-fixtures.ts';
import { collectResults, directAndDelayed, engineOf, livePair, runsWorkload, type GalleryResults } from './gallery-runs.ts';
import { PUBLISHED_BENCHMARKS, publishedBenchmark } from './published-benchmarks.ts';

const tair = publishedBenchmark('tair-incr');
const tencent = publishedBenchmark('tencent-set');
const netcat = publishedBenchmark('docs-netcat');

describe('runsWorkload', () => {
  it('matches a trace of the benchmark’s command, N, value size, client and warmth', () => {
    expect(runsWorkload(galleryTrace(tair.spec, 'sequential', 250_000), tair.spec)).toBe(true);
    expect(runsWorkload(galleryTrace(tencent.spec, 'pipeline', 20_000), tencent.spec)).toBe(true);
    expect(runsWorkload(galleryTrace(netcat.spec, 'pipeline', 80), netcat.spec)).toBe(true);
  });

  it('leaves out other workloads: another N, value size, client, or a cold connection', () => {
    expect(runsWorkload(sequentialTrace(10), tair.spec)).toBe(false); // 10 INCRs, cold
    expect(runsWorkload(galleryTrace({ ...tencent.spec, valueBytes: 100 }, 'pipeline', 20_000), tencent.spec)).toBe(false);
    expect(runsWorkload(galleryTrace({ ...netcat.spec, engine: 'ioredis' }, 'pipeline', 80), netcat.spec)).toBe(false);
    expect(runsWorkload(galleryTrace({ ...tair.spec, cold: true }, 'pipeline', 20_000), tair.spec)).toBe(false);
    // The netcat example asks for the pipeline only.
    expect(runsWorkload(galleryTrace(netcat.spec, 'sequential', 80), netcat.spec)).toBe(false);
  });

  it('reads the engine off the recorder', () => {
    expect(engineOf(galleryTrace(netcat.spec, 'pipeline', 80))).toBe('raw');
    expect(engineOf(galleryTrace(tair.spec, 'pipeline', 80))).toBe('ioredis');
  });
});

describe('collectResults', () => {
  it('keeps each benchmark’s traces per added RTT, the latest last, and survives another card’s run', () => {
    const direct = galleryPair(tair.spec, [250_000, 260_000], [25_000, 26_000]);
    let results: GalleryResults = {};
    results = collectResults(results, PUBLISHED_BENCHMARKS, direct, 'live');
    expect(results['tair-incr']).toEqual([{ addedMs: 0, traces: direct, source: 'live' }]);
    // The same traces again: nothing changes, not even the object.
    expect(collectResults(results, PUBLISHED_BENCHMARKS, direct, 'live')).toBe(results);
    const delayed = galleryPair(tair.spec, [2_000_000], [25_500], { addedMs: 0.33 });
    results = collectResults(results, PUBLISHED_BENCHMARKS, delayed, 'live');
    // Another card's run replaces the store's traces; the Tair card keeps both of its results.
    const blog = galleryPair(publishedBenchmark('blog-ping').spec, [500_000], [50_000]);
    results = collectResults(results, PUBLISHED_BENCHMARKS, blog, 'live');
    expect(directAndDelayed(results['tair-incr'])).toEqual({
      direct: { addedMs: 0, traces: direct, source: 'live' },
      delayed: { addedMs: 0.33, traces: delayed, source: 'live' },
    });
    // Both 10,000-PING cards ran the same workload: each shows it.
    expect(results['blog-ping']?.[0]?.traces).toEqual(blog);
    expect(results['docs-ping']?.[0]?.traces).toEqual(blog);
  });

  it('replaces a result as more repeats of a request arrive', () => {
    const all = galleryPair(tair.spec, [250_000, 260_000, 270_000], [25_000, 26_000, 27_000]);
    const first = collectResults({}, PUBLISHED_BENCHMARKS, all.slice(0, 2), 'live');
    const later = collectResults(first, PUBLISHED_BENCHMARKS, all, 'live');
    expect(later['tair-incr']).toEqual([{ addedMs: 0, traces: all, source: 'live' }]);
  });
});

describe('livePair', () => {
  it('gives each mode’s total as median [min–max] and the median RTT over all repeats', () => {
    const docs = [
      ...galleryPair(tair.spec, [250_000, 240_000], [25_000, 30_000], { rttUs: 40 }),
      galleryTrace(tair.spec, 'sequential', 300_000, { repeat: 2, rttUs: 60 }),
    ];
    expect(livePair(docs)).toEqual({
      n: 5000,
      sequentialUs: { median: 250_000, min: 240_000, max: 300_000 },
      pipelineUs: { median: 27_500, min: 25_000, max: 30_000 },
      rttUs: 40,
      sequentialRuns: 3,
      pipelineRuns: 2,
      // Paired by round: rounds 0 and 1 (250,000 ÷ 25,000 and 240,000 ÷ 30,000); two pairs have no 95 % interval.
      ratio: { median: Math.sqrt(10 * 8), lo: null, hi: null, pairs: 2 },
    });
  });

  it('is null until both modes have a run', () => {
    expect(livePair([galleryTrace(tair.spec, 'sequential', 250_000)])).toBeNull();
  });
});
