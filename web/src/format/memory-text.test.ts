import { describe, expect, it } from 'vitest';
import { memorySamples } from '../test-support/trace-fixtures.ts';
import { memoryGapNote } from './memory-text.ts';

describe('memoryGapNote', () => {
  it('says nothing when every interval was sampled', () => {
    expect(memoryGapNote(memorySamples([0, 10_000, 20_000], [500, 10_500, 20_500]), 25_000)).toBeNull();
  });

  it('states each side’s gaps from the samples, and why there are none then', () => {
    // The client's loop was busy from 10 ms to 1.41 s; Redis's answers stopped meanwhile too.
    const memory = memorySamples([0, 10_000, 1_410_000, 1_420_000], [500, 1_410_500]);
    expect(memoryGapNote(memory, 1_430_000)).toBe(
      'No samples — client: 1 gap, 1.4 s in all (from 10 ms); Redis: 1 gap, 1.41 s in all (from 500 µs). ' +
        "The sampler runs on the client's event loop, so it takes none while the client is busy (encoding or parsing a large pipeline). " +
        'Redis is asked on a separate connection, one request at a time, so a busy client or Redis delays its next sample. ' +
        'Lines are not drawn across gaps over 50 ms (5 × the 10 ms interval).',
    );
  });

  it('gives the reason that fits: Redis alone can have gaps while the client’s samples go on', () => {
    const memory = memorySamples([0, 10_000, 20_000, 30_000, 40_000, 50_000, 60_000, 70_000, 80_000, 90_000], [500, 80_500]);
    const note = memoryGapNote(memory, 90_000)!;
    expect(note).toMatch(/^No samples — Redis: 1 gap, 80 ms in all \(from 500 µs\)\. Redis is asked on a separate connection/);
    expect(note).not.toMatch(/event loop/);
  });

  it('counts several gaps with the longest, and a side with no samples at all', () => {
    const memory = memorySamples([0, 100_000, 110_000, 400_000], []);
    expect(memoryGapNote(memory, 400_000)).toMatch(/^No samples — client: 2 gaps, 390 ms in all \(longest 290 ms from 110 ms\); Redis: no samples\. /);
  });
});
