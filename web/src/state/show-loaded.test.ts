import { describe, expect, it } from 'vitest';
import { modeTrace } from '../test-support/trace-fixtures.ts';
import { notShownText } from './show-loaded.ts';

describe('opening more runs than compare side by side', () => {
  it('names the runs not drawn instead of dropping them silently', () => {
    const text = notShownText([modeTrace('eval', 10).run, modeTrace('evalsha', 10).run], 8);
    expect(text).toBe(
      'Showing the first 6 of 8 runs (at most 6 compare side by side); not drawn: One EVAL script · 10 × INCR; EVALSHA calls in one pipeline · 10 × INCR. Open those on their own to see them.',
    );
  });
});
