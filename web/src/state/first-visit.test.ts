// The first screen's recording: when it was recorded, as the label says it, and the switch that turns it off.
import { afterEach, describe, expect, it } from 'vitest';
import { sequentialTrace } from '../test-support/trace-fixtures.ts';
import { FIRST_VISIT_STORAGE_KEY, firstVisitOff, recordedAtText } from './first-visit.ts';

afterEach(() => window.localStorage.clear());

describe('the first visit', () => {
  it('dates a recording by its earliest run, to the minute, in UTC', () => {
    const at = (startedAt: string) => {
      const doc = sequentialTrace(10);
      return { ...doc, run: { ...doc.run, startedAt } };
    };
    expect(recordedAtText([at('2026-11-26T13:44:35.587Z'), at('2026-11-26T13:43:59.001Z')])).toBe('2026-11-26 13:43 UTC');
    expect(recordedAtText([at('not a date')])).toBe('an unknown date');
  });

  it('is on unless this browser said "off"', () => {
    expect(firstVisitOff()).toBe(false);
    window.localStorage.setItem(FIRST_VISIT_STORAGE_KEY, 'off');
    expect(firstVisitOff()).toBe(true);
  });
});
