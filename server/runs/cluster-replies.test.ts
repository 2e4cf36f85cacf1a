// A cluster run's error replies read as redirects (MOVED and ASK with their slot and address, CROSSSLOT
// and TRYAGAIN without), never EXECABORT or another error; and the commands a node counts as processed.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../trace/format/trace-format.ts';
import { countedCommands, redirectOf, redirectsOf } from './cluster-replies.ts';

const CROSSSLOT = 'CROSSSLOT Keys in request don\'t hash to the same slot';
type Command = TraceDocument['commands'][number];

describe('redirectOf', () => {
  it('reads each kind as Redis words it', () => {
    expect(redirectOf('MOVED 9233 127.0.0.1:7602')).toEqual({ kind: 'MOVED', slot: 9233, to: '127.0.0.1:7602' });
    expect(redirectOf('ASK 12 10.0.0.2:6379')).toEqual({ kind: 'ASK', slot: 12, to: '10.0.0.2:6379' });
    expect(redirectOf(CROSSSLOT)).toEqual({ kind: 'CROSSSLOT' });
    expect(redirectOf('TRYAGAIN Multiple keys request during rehashing of slot')).toEqual({ kind: 'TRYAGAIN' });
    expect(redirectOf('EXECABORT Transaction discarded because of previous errors.')).toBeNull();
    expect(redirectOf('ERR value is not an integer or out of range')).toBeNull();
  });
});

describe('redirectsOf', () => {
  it('each refused command in reply order, from the node it went to, followed by nothing', () => {
    const commands = [
      { index: 0, sentUs: 1, repliedUs: 50, node: 'a', connection: 0, reply: 'OK' },
      { index: 1, sentUs: 2, repliedUs: 40, slot: 9, node: 'b', connection: 1, error: 'MOVED 9 127.0.0.1:7601' },
      { index: 2, sentUs: 3, repliedUs: 30, node: 'b', connection: 1, error: CROSSSLOT },
      { index: 3, sentUs: 4, repliedUs: 60, node: 'b', connection: 1, error: 'EXECABORT Transaction discarded because of previous errors.' },
    ] as Command[];
    expect(redirectsOf(commands)).toEqual([
      { atUs: 30, command: 2, kind: 'CROSSSLOT', from: 'b', error: CROSSSLOT },
      { atUs: 40, command: 1, kind: 'MOVED', slot: 9, from: 'b', to: '127.0.0.1:7601', error: 'MOVED 9 127.0.0.1:7601' },
    ]);
  });
});

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
