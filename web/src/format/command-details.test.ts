import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { modeTrace } from '../test-support/trace-fixtures.ts';
import { commandDetails, nestedErrorsText } from './command-details.ts';

describe('the tooltip of a reply holding errors', () => {
  it('EXEC after a runtime error: a row says its array contains 1 error; other replies have no such row', () => {
    const columns = traceColumns(modeTrace('multi', 10, { errorAt: 4 }));
    expect(commandDetails(columns, 11).rows.find((r) => r.label === 'inside')?.value).toBe(
      'contains 1 error — element of the array; the other commands still ran',
    );
    expect(commandDetails(columns, 5).rows.some((r) => r.label === 'inside')).toBe(false);
  });

  it('says "at least" when the recorded preview was cut', () => {
    expect(nestedErrorsText({ count: 2, atLeast: true })).toBe('contains at least 2 errors');
    expect(nestedErrorsText({ count: 1, atLeast: false })).toBe('contains 1 error');
  });
});
