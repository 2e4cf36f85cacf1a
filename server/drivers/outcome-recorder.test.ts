import { expect, it } from 'vitest';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { outcomeRecorder } from './outcome-recorder.ts';

it('records every reply in order, the same object for a reply equal to the one before', () => {
  const outcomes: Outcome[] = [];
  const recorder = outcomeRecorder((o) => outcomes.push(o));
  recorder.reply('PONG');
  recorder.reply('PONG');
  recorder.reply(1);
  recorder.reply(2);
  recorder.error('ERR x');
  recorder.error('ERR x');
  recorder.reply(null);
  recorder.reply('PONG');
  expect(outcomes).toEqual([{ reply: 'PONG' }, { reply: 'PONG' }, { reply: 1 }, { reply: 2 }, { error: 'ERR x' }, { error: 'ERR x' }, { reply: null }, { reply: 'PONG' }]);
  expect(outcomes[1]).toBe(outcomes[0]);
  expect(outcomes[5]).toBe(outcomes[4]);
  expect(outcomes[3]).not.toBe(outcomes[2]);
});
