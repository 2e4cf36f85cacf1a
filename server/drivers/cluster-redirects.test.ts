// A cluster node's error replies read as redirects: MOVED and ASK with their slot and address, CROSSSLOT
// and TRYAGAIN without; never EXECABORT or another error.
import { describe, expect, it } from 'vitest';
import { parseRedirect } from './cluster-redirects.ts';

describe('parseRedirect', () => {
  it('reads each kind as Redis words it', () => {
    expect(parseRedirect('MOVED 9233 127.0.0.1:7602')).toEqual({ kind: 'MOVED', slot: 9233, to: '127.0.0.1:7602' });
    expect(parseRedirect('ASK 12 10.0.0.2:6379')).toEqual({ kind: 'ASK', slot: 12, to: '10.0.0.2:6379' });
    expect(parseRedirect('CROSSSLOT Keys in request don\'t hash to the same slot')).toEqual({ kind: 'CROSSSLOT' });
    expect(parseRedirect('TRYAGAIN Multiple keys request during rehashing of slot')).toEqual({ kind: 'TRYAGAIN' });
    expect(parseRedirect('EXECABORT Transaction discarded because of previous errors.')).toBeNull();
    expect(parseRedirect('ERR value is not an integer or out of range')).toBeNull();
    expect(parseRedirect('MOVED 16384 127.0.0.1:7602')).toBeNull(); // no such slot
  });
});
