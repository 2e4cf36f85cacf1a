// For tests: the record of one observed connection, as the observing proxy would make it: redis-py's
// pipeline() by default (MULTI, 2 × INCRBY, EXEC in one chunk, the four replies in one), any field overridden.
import type { ObservedRecord } from '../format/observed-trace.ts';

/** redis-py's pipeline(): MULTI, 2 × INCRBY, EXEC in one chunk, the replies in one. */
export function record(overrides: Partial<ObservedRecord> = {}): ObservedRecord {
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

