import { describe, expect, it } from 'vitest';
import { ServerMessageSchema, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { SweepSpecSchema, type SweepSpec } from '../../../trace/format/sweep-format.ts';
import { sweepDocument } from '../test-support/sweep-fixtures.ts';
import { SweepTracker } from './sweep-tracker.ts';

const spec: SweepSpec = SweepSpecSchema.parse({ command: 'PING', depths: [1, 2, 4], perPoint: 100, repeats: 2, reference: true });

/** Messages exactly as the backend sends them, checked against the protocol schema. */
const msg = (m: ServerMessage): ServerMessage => ServerMessageSchema.parse(m);

function progress(requestId: string, tool: 'pipescope' | 'redis-benchmark', depth: number, repeat: number, done: number, opsPerSec?: number): ServerMessage {
  return msg({ type: 'sweep-progress', requestId, tool, depth, repeat, done, total: 12, ...(opsPerSec === undefined ? {} : { opsPerSec }) });
}

describe('SweepTracker', () => {
  it('follows queue, start and progress, collecting each run’s ops/s by depth', () => {
    const t = new SweepTracker();
    t.begin('s1', spec);
    expect(t.active).toMatchObject({ position: null, done: 0, total: 12, ours: [] });
    t.handle(msg({ type: 'queued', requestId: 's1', position: 2 }));
    expect(t.active?.position).toBe(2);
    const doc = sweepDocument([1, 2, 4], 100);
    t.handle(msg({ type: 'sweep-start', requestId: 's1', sweep: doc.sweep, redis: doc.redis, recorder: doc.recorder }));
    expect(t.active?.position).toBe(0);
    expect(t.active?.header?.redis.version).toBe('7.0.15');
    t.handle(progress('s1', 'pipescope', 1, 1, 1, 10_000));
    t.handle(progress('s1', 'pipescope', 1, 2, 2, 12_000));
    t.handle(progress('s1', 'pipescope', 2, 1, 3, 19_000));
    expect(t.active?.ours).toEqual([
      { depth: 1, opsPerSec: [10_000, 12_000] },
      { depth: 2, opsPerSec: [19_000] },
    ]);
    expect(t.active?.last).toEqual({ tool: 'pipescope', depth: 2, repeat: 1 });
    expect(t.active?.done).toBe(3);
    // redis-benchmark's progress carries no ops/s today; when it does, it is kept apart.
    t.handle(progress('s1', 'redis-benchmark', 1, 1, 7));
    t.handle(progress('s1', 'redis-benchmark', 1, 2, 8, 15_000));
    expect(t.active?.reference).toEqual([{ depth: 1, opsPerSec: [15_000] }]);
  });

  it('hands over the finished document, then ends at request-done', () => {
    const t = new SweepTracker();
    t.begin('s1', spec);
    const doc = sweepDocument([1, 2, 4], 100);
    expect(t.handle(msg({ type: 'sweep-end', requestId: 's1', document: doc }))).toEqual([{ kind: 'document', doc }]);
    expect(t.active).not.toBeNull();
    expect(t.handle(msg({ type: 'request-done', requestId: 's1' }))).toEqual([{ kind: 'finished', outcome: 'done' }]);
    expect(t.active).toBeNull();
  });

  it('refuses a document that breaks the sweep rules, with verifySweep’s message', () => {
    const t = new SweepTracker();
    t.begin('s1', spec);
    const doc = sweepDocument([1, 2, 4], 100);
    const events = t.handle(msg({ type: 'sweep-end', requestId: 's1', document: { ...doc, points: [doc.points[1]!, doc.points[0]!] } }));
    expect(events).toEqual([{ kind: 'failed', message: 'The sweep the backend sent is not valid: Invalid sweep: its points do not follow the sweep\'s depths.' }]);
    expect(t.active).toBeNull();
  });

  it('ignores other requests, and ends on cancel, error or a lost connection', () => {
    const t = new SweepTracker();
    t.begin('s1', spec);
    expect(t.handle(progress('other', 'pipescope', 1, 1, 1, 5))).toEqual([]);
    expect(t.active?.done).toBe(0);
    t.markCancelling();
    expect(t.active?.cancelling).toBe(true);
    expect(t.handle(msg({ type: 'cancelled', requestId: 's1' }))).toEqual([{ kind: 'finished', outcome: 'cancelled' }]);
    t.begin('s2', spec);
    expect(t.handle(msg({ type: 'error', requestId: 's2', message: 'Sweep failed: boom' }))).toEqual([{ kind: 'failed', message: 'Sweep failed: boom' }]);
    t.begin('s3', spec);
    expect(t.abandon('gone')).toEqual([{ kind: 'failed', message: 'gone' }]);
    expect(t.abandon('again')).toEqual([]);
  });
});
