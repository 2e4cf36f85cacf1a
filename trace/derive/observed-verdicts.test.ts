import { describe, expect, it } from 'vitest';
import { observedTrace } from '../format/observed-trace.ts';
import { record } from '../test-support/observed-record.ts';
import { observedVerdicts, transactionsOf } from './observed-verdicts.ts';

describe('observedVerdicts', () => {
  it('says what went on the wire, the round trips, the transaction and the reply sizes, each with its source', () => {
    const lines = observedVerdicts(observedTrace(record())!);
    const text = (kind: string) => lines.filter((l) => l.kind === kind).map((l) => l.text);
    expect(text('wire')[0]).toBe('4 commands in 1 chunk from the client (1 chunk completing commands): MULTI, 2 × INCRBY, EXEC');
    expect(text('trips')[0]).toMatch(/^1 round trip/);
    expect(text('transaction')[0]).toBe('wrapped in MULTI/EXEC: 1 transaction; the first wraps 2 commands (MULTI, 2 × INCRBY, EXEC), MULTI to EXEC in one chunk');
    expect(text('replies')[0]).toBe('4 replies, 37 B in all: median 9 B, largest 14 B; 0 errors');
    expect(text('hop')[0]).toMatch(/not measured/);
    expect(lines.every((l) => l.source.length > 0)).toBe(true);
  });

  it('finds MULTI … EXEC and DISCARD blocks', () => {
    expect(transactionsOf(['GET a', 'MULTI', 'SET a 1', 'DISCARD', 'multi', 'EXEC'])).toEqual([
      { multi: 1, end: 3, ended: 'DISCARD' }, { multi: 4, end: 5, ended: 'EXEC' },
    ]);
  });
});
