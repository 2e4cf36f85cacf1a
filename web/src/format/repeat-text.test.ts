import { describe, expect, it } from 'vitest';
import { runGroups } from '../model/run-groups.ts';
import { repeatsOf } from '../test-support/repeat-fixtures.ts';
import { sequentialTrace } from '../test-support/trace-fixtures.ts';
import { repeatOptionText, repeatsNote } from './repeat-text.ts';

describe('repeat words', () => {
  it('names each repeat from 1, with its total and the median marked', () => {
    const group = runGroups(repeatsOf(sequentialTrace(10), [1300, 1100, 1190]))[0]!;
    expect(group.repeats.map((d, i) => repeatOptionText(d, i, group))).toEqual([
      'repeat 1 of 3 · 1.3 ms',
      'repeat 2 of 3 · 1.1 ms',
      'repeat 3 of 3 · 1.19 ms · median',
    ]);
  });

  it('says what the ranges are over, and what the median of an even count is', () => {
    expect(repeatsNote(runGroups([sequentialTrace(10)])[0]!)).toBeNull();
    expect(repeatsNote(runGroups(repeatsOf(sequentialTrace(10), [1, 2, 3]))[0]!)).toBe(
      'Figures: median [min–max] of 3 repeats, run interleaved with the other modes.',
    );
    expect(repeatsNote(runGroups(repeatsOf(sequentialTrace(10), [1, 2]))[0]!)).toMatch(/of 2 repeats, .* \(an even count: the median is the mean of the middle two; the diagram shows the lower one\)\.$/);
  });
});
