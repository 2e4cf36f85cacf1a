import { describe, expect, it } from 'vitest';
import { observedVerdicts, transactionsOf } from '../derive/observed-verdicts.ts';
import { observedTrace, type ObservedRecord } from './observed-trace.ts';
import { verifyTrace } from './trace-io.ts';

/** redis-py's pipeline(): MULTI, 2 × INCRBY, EXEC in one chunk, the replies in one. */
function record(overrides: Partial<ObservedRecord> = {}): ObservedRecord {
  return {
    session: 's1', connection: 1, clientAddress: '127.0.0.1:5000', startedAt: '2026-01-01T00:00:00.000Z',
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:6379' }, recorder: { tool: 'pipescope', version: 't', runtime: 'node' },
    addedRttMs: 0, jitterMs: 0, hop: null, protocol: 2,
    commands: ['MULTI', 'INCRBY k 1', 'INCRBY k 1', 'EXEC'], commandBytes: [15, 30, 30, 14],
    outcomes: [{ reply: 'OK' }, { reply: 'QUEUED' }, { reply: 'QUEUED' }, { reply: '[1,2]' }], replyBytes: [5, 9, 9, 14],
    fromClient: [{ atUs: 0, bytes: 89, commands: 4 }], toServer: [{ atUs: 3, bytes: 89, commands: 4 }],
    fromServer: [{ atUs: 40, bytes: 37, replies: 4 }], toClient: [{ atUs: 42, bytes: 37, replies: 4 }],
    pushes: [], pushCount: 0, notes: [], kernelTcp: null, closed: true,
    ...overrides,
  };
}

describe('observedTrace', () => {
  it('a closed connection with every reply: a complete, valid document naming its commands', () => {
    const doc = observedTrace(record())!;
    expect(doc.incomplete).toBeNull();
    expect(doc.run.observed!.commands).toEqual(['MULTI', 'INCRBY k 1', 'INCRBY k 1', 'EXEC']);
    expect(doc.commands.map((c) => c.toServerUs)).toEqual([3, 3, 3, 3]);
    expect(verifyTrace(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  });

  it('open: in progress, however complete; closed with replies missing: connection-lost; nothing sent: no document', () => {
    expect(observedTrace(record({ closed: false }))!.incomplete!.reason).toBe('in-progress');
    expect(observedTrace(record({ closed: false }), true)!.incomplete).toBeNull();
    const lost = observedTrace(record({ outcomes: [{ reply: 'OK' }], replyBytes: [5], fromServer: [{ atUs: 40, bytes: 5, replies: 1 }], toClient: [{ atUs: 42, bytes: 5, replies: 1 }] }))!;
    expect(lost.incomplete).toMatchObject({ reason: 'connection-lost', sent: 4, replied: 1 });
    expect(verifyTrace(JSON.parse(JSON.stringify(lost))).commands).toHaveLength(1);
    expect(observedTrace(record({ commands: [], commandBytes: [], outcomes: [], replyBytes: [] }))).toBeNull();
  });

  it('sequential when no two commands were ever in flight, pipeline otherwise', () => {
    expect(observedTrace(record())!.run.mode).toBe('pipeline');
    const oneByOne = record({
      commands: ['PING', 'PING'], commandBytes: [14, 14], outcomes: [{ reply: 'PONG' }, { reply: 'PONG' }], replyBytes: [7, 7],
      fromClient: [{ atUs: 0, bytes: 14, commands: 1 }, { atUs: 50, bytes: 14, commands: 1 }], toServer: [{ atUs: 1, bytes: 14, commands: 1 }, { atUs: 51, bytes: 14, commands: 1 }],
      fromServer: [{ atUs: 20, bytes: 7, replies: 1 }, { atUs: 70, bytes: 7, replies: 1 }], toClient: [{ atUs: 21, bytes: 7, replies: 1 }, { atUs: 71, bytes: 7, replies: 1 }],
    });
    expect(observedTrace(oneByOne)!.run.mode).toBe('sequential');
  });
});

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
