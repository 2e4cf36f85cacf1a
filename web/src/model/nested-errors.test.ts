import { describe, expect, it } from 'vitest';
import { modeTrace } from '../test-support/trace-fixtures.ts';
import { nestedErrors } from './nested-errors.ts';

describe('errors inside a reply', () => {
  it('a runtime error planted in MULTI: EXEC’s reply holds exactly one', () => {
    const doc = modeTrace('multi', 10, { errorAt: 4 });
    expect(nestedErrors(doc, 11)).toEqual({ count: 1, atLeast: false });
    expect(nestedErrors(doc, 5)).toBeNull(); // a QUEUED reply
  });

  it('none in a clean transaction, nor in an EXECABORT (an error reply itself)', () => {
    expect(nestedErrors(modeTrace('multi', 10), 11)).toBeNull();
    expect(nestedErrors(modeTrace('multi', 10, { errorAt: 4, errorKind: 'queueing' }), 11)).toBeNull();
  });

  it('counted in the recorded preview, "at least" when the preview was cut', () => {
    const doc = modeTrace('multi', 10);
    const exec = (reply: string) => ({ ...doc, commands: doc.commands.map((c, i) => (i === 11 ? { ...c, reply } : c)) });
    expect(nestedErrors(exec('[1,{"error":"ERR a"},{"error":"ERR b"}]'), 11)).toEqual({ count: 2, atLeast: false });
    expect(nestedErrors(exec('[1,1,1,1,{"error":"ERR value is not an integer or out of range"}… (75 bytes)'), 11)).toEqual({ count: 1, atLeast: true });
  });
});
