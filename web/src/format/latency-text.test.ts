import { describe, expect, it } from 'vitest';
import { latencyStats } from '../../../trace/derive/latency-stats.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { latencyFigures, tooFewNote } from './latency-text.ts';

describe('latencyFigures', () => {
  it('gives avg, min, p50, p95, p99 and max, saying "n too small" where a percentile needs more commands', () => {
    const figures = latencyFigures([latencyStats(sequentialTrace(10, 100))]);
    expect(figures.map((f) => [f.id, f.median, f.tooSmall])).toEqual([
      ['avg', '100 µs', null],
      ['min', '100 µs', null],
      ['p50', '100 µs', null],
      ['p95', '100 µs', 'p95 needs ≥ 20 commands; this run has 10'],
      ['p99', '100 µs', 'p99 needs ≥ 100 commands; this run has 10'],
      ['max', '100 µs', null],
    ]);
    expect(latencyFigures([latencyStats(sequentialTrace(100))]).every((f) => f.tooSmall === null)).toBe(true);
    expect(latencyFigures([latencyStats(sequentialTrace(1))]).find((f) => f.id === 'p50')?.tooSmall).toBe('p50 needs ≥ 2 commands; this run has 1');
  });

  it('gives each figure as median [min–max] over the repeats', () => {
    // One pipeline of 10: write at 10 µs, replies at 500, 600 or 700 µs.
    const stats = [500, 700, 600].map((replyUs) => latencyStats(pipelineTrace(10, 10, 10, replyUs)));
    const max = latencyFigures(stats).find((f) => f.id === 'max')!;
    expect(max).toMatchObject({ spread: { median: 590, min: 490, max: 690 }, median: '590 µs', range: '[490–690 µs]' });
  });

  it('says in words why a percentile is the max when the run is too small for it', () => {
    const ten = latencyFigures([latencyStats(sequentialTrace(10, 100))]);
    expect(tooFewNote(ten, 10)).toBe('With 10 commands, p95 and p99 are the slowest one: a percentile differs from the max from 20 (p95) and 100 (p99) commands on.');
    const fifty = latencyFigures([latencyStats(sequentialTrace(50))]);
    expect(tooFewNote(fifty, 50)).toBe('With 50 commands, p99 is the slowest one: a percentile differs from the max from 100 (p99) commands on.');
    const one = latencyFigures([latencyStats(sequentialTrace(1))]);
    expect(tooFewNote(one, 1)).toBe('With 1 command, p50, p95 and p99 are that one: a percentile differs from the max from 2 (p50), 20 (p95) and 100 (p99) commands on.');
    expect(tooFewNote(latencyFigures([latencyStats(sequentialTrace(100))]), 100)).toBeNull();
  });
});
