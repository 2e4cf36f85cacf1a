import { describe, expect, it } from 'vitest';
import { observedTrace } from './observed-trace.ts';
import { record } from '../test-support/observed-record.ts';
import { verifyTrace } from './trace-io.ts';

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
