import { describe, expect, it } from 'vitest';
import { modeTrace } from '../test-support/trace-fixtures.ts';
import { arrayPreviewElements, failedInTransaction, nestedErrors } from './nested-errors.ts';

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

describe('which queued command failed inside EXEC', () => {
  it('reads each element of an array preview, strings and nesting skipped whole, a cut element left out', () => {
    expect(arrayPreviewElements('[1,{"error":"ERR a, b"},"x]y",[1,2],null]')).toEqual([null, 'ERR a, b', null, null, null]);
    expect(arrayPreviewElements('[1,1,1,1,{"error":"ERR value is not an integer or out of range"}… (75 bytes)')).toEqual([null, null, null, null]);
    expect(arrayPreviewElements('OK')).toEqual([]);
  });

  it('maps an error element of EXEC’s reply to its queued command, and the planted one past the cut to its place', () => {
    const doc = modeTrace('multi', 10, { errorAt: 4 });
    const withExecReply = (reply: string) => ({ ...doc, commands: doc.commands.map((c, i) => (i === 11 ? { ...c, reply } : c)) });
    const whole = withExecReply('[1,1,1,1,{"error":"ERR value is not an integer or out of range"},1,1,1,1,1]');
    expect([...failedInTransaction(whole)]).toEqual([[5, 'ERR value is not an integer or out of range']]);
    // The recorded preview cuts the error element (as a real run's does): only its place is known, from the planted operation.
    const cut = withExecReply('[1,1,1,1,{"error":"ERR value is not an integer or out of range"}… (75 bytes)');
    expect([...failedInTransaction(cut)]).toEqual([[5, null]]);
    const two = { ...doc, run: { ...doc.run, injectedError: null }, commands: doc.commands.map((c, i) => (i === 11 ? { ...c, reply: '[1,{"error":"ERR a"},1,{"error":"ERR b"}]' } : c)) };
    expect([...failedInTransaction(two)]).toEqual([[2, 'ERR a'], [4, 'ERR b']]);
  });

  it('none in a clean transaction, an EXECABORT (nothing ran) or another mode', () => {
    expect(failedInTransaction(modeTrace('multi', 10)).size).toBe(0);
    expect(failedInTransaction(modeTrace('multi', 10, { errorAt: 4, errorKind: 'queueing' })).size).toBe(0);
    expect(failedInTransaction(modeTrace('pipeline', 10, { errorAt: 4 })).size).toBe(0);
  });
});
