// The commands a node counts as processed, its refusals (MOVED, ASK, TRYAGAIN, CROSSSLOT) left out.
import { describe, expect, it } from 'vitest';
import { countedCommands } from './cluster-replies.ts';

const CROSSSLOT = 'CROSSSLOT Keys in request don\'t hash to the same slot';

describe('countedCommands', () => {
  const ok = { reply: 'OK' };
  const queued = { reply: 'QUEUED' };
  it('refused commands are not processed; a transaction counts MULTI, then what EXEC ran', () => {
    expect(countedCommands('pipeline', [ok, ok, { error: 'MOVED 1 h:1' }])).toBe(2);
    expect(countedCommands('multikey', [{ error: CROSSSLOT }])).toBe(0);
    expect(countedCommands('multi', [ok, queued, queued, { reply: '[2]' }])).toBe(4);
    expect(countedCommands('multi', [ok, queued, { error: 'MOVED 1 h:1' }, { error: 'EXECABORT Transaction discarded because of previous errors.' }])).toBe(2);
    expect(countedCommands('multi', [ok, queued, queued, { error: CROSSSLOT }])).toBe(1);
  });
});
