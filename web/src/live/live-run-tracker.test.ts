import { describe, expect, it } from 'vitest';
import { encodeBatch, ServerMessageSchema, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { RunSpecSchema, type RunSpec } from '../../../trace/format/run-request.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import { chunkedTrace, header, memorySamples } from '../test-support/trace-fixtures.ts';
import { LiveRunTracker } from './live-run-tracker.ts';

const spec: RunSpec = RunSpecSchema.parse({ command: 'INCR', n: 3, valueBytes: 0, modes: ['sequential', 'pipeline'] });
const server = { reads: 3, writes: 3, execUs: 6, source: 'redis-info' as const, exclusive: true };

/** Messages exactly as the backend sends them, checked against the protocol schema. */
function msg(m: ServerMessage): ServerMessage {
  return ServerMessageSchema.parse(m);
}

function sequentialMessages(requestId: string): ServerMessage[] {
  const h = header('sequential', 3, 'INCR', 'seq-1');
  return [
    msg({ type: 'run-start', requestId, ...h }),
    msg({
      type: 'run-events', requestId, runId: 'seq-1',
      ...encodeBatch({ writes: [{ atUs: 5, bytes: 40, commands: 1 }], reads: [{ atUs: 50, bytes: 4, replies: 1 }], outcomes: [{ reply: 1 }] }),
    }),
    msg({
      type: 'run-events', requestId, runId: 'seq-1',
      ...encodeBatch({
        writes: [{ atUs: 60, bytes: 40, commands: 1 }, { atUs: 120, bytes: 40, commands: 1 }],
        reads: [{ atUs: 110, bytes: 4, replies: 1 }, { atUs: 170, bytes: 4, replies: 1 }],
        outcomes: [{ reply: 2 }, { reply: 3 }],
      }),
    }),
    msg({ type: 'run-end', requestId, runId: 'seq-1', server, doneUs: 175 }),
  ];
}

describe('LiveRunTracker', () => {
  it('builds a trace per mode from run-start, run-events and run-end', () => {
    const t = new LiveRunTracker();
    t.begin('r1', spec);
    expect(t.handle(msg({ type: 'queued', requestId: 'r1', position: 1 }))).toEqual([]);
    expect(t.active?.position).toBe(1);
    const [start, first, second, end] = sequentialMessages('r1');
    t.handle(start!);
    expect(t.active?.position).toBe(0);
    t.handle(first!);
    // lastUs: the read at 50 µs; the default repeats, until certain: the first run of 10 to the first check, of 40 at most.
    expect(t.active?.progress[0]).toEqual({ mode: 'sequential', n: 3, sent: 1, replied: 1, lastUs: 50, runsDone: 0, runs: 10, upTo: true, limit: 40, done: false });
    t.handle(second!);
    const events = t.handle(end!);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    expect(event.kind).toBe('trace');
    if (event.kind !== 'trace') return;
    expect(event.firstOfRequest).toBe(true);
    expect(event.doc.commands.map((c) => [c.sentUs, c.repliedUs])).toEqual([[5, 50], [60, 110], [120, 170]]);
    expect(event.doc.counts.client).toMatchObject({ writes: 3, reads: 3 });
    expect(t.active?.progress.map((p) => [p.runsDone, p.replied, p.done])).toEqual([[1, 0, false], [0, 0, false]]);
    expect(t.handle(msg({ type: 'request-done', requestId: 'r1' }))).toEqual([{ kind: 'finished', outcome: 'done' }]);
    expect(t.active).toBeNull();
  });

  it('counts each mode’s repeats: a trace per run, the first of the request marked, done after the last', () => {
    const t = new LiveRunTracker();
    t.begin('r1', { ...spec, modes: ['sequential'], repeats: 2 });
    const repeat = (k: number) =>
      sequentialMessages('r1').map((m) => {
        if (m.type === 'run-start') return msg({ ...m, run: { ...m.run, id: `seq-${k}`, repeat: k } });
        return 'runId' in m ? msg({ ...m, runId: `seq-${k}` }) : m;
      });
    const first = repeat(0).flatMap((m) => t.handle(m));
    expect(t.active?.progress[0]).toMatchObject({ runsDone: 1, runs: 2, done: false });
    const [start, events] = repeat(1);
    t.handle(start!);
    t.handle(events!);
    expect(t.active?.progress[0]).toMatchObject({ runsDone: 1, replied: 1, done: false });
    const second = repeat(1).slice(2).flatMap((m) => t.handle(m));
    expect([...first, ...second].map((e) => e.kind === 'trace' && [e.doc.run.repeat, e.firstOfRequest])).toEqual([[0, true], [1, false]]);
    expect(t.active?.progress[0]).toMatchObject({ runsDone: 2, done: true });
  });

  it('counts a compared request’s rounds: a mode is done a round after its run in each cluster variant', () => {
    const t = new LiveRunTracker();
    t.begin('r1', { ...spec, modes: ['sequential'], repeats: 2, clusterCompare: 'keys' });
    const run = (id: string) =>
      sequentialMessages('r1').map((m) => {
        if (m.type === 'run-start') return msg({ ...m, run: { ...m.run, id } });
        return 'runId' in m ? msg({ ...m, runId: id }) : m;
      });
    for (const [id, roundsDone] of [['spread-0', 0], ['tag-0', 1], ['tag-1', 1], ['spread-1', 2]] as const) {
      run(id).forEach((m) => t.handle(m));
      expect(t.active?.progress[0]).toMatchObject({ runsDone: roundsDone, runs: 2, done: roundsDone === 2 });
    }
  });

  it('ignores messages for other requests', () => {
    const t = new LiveRunTracker();
    t.begin('r1', spec);
    expect(t.handle(msg({ type: 'request-done', requestId: 'other' }))).toEqual([]);
    expect(t.handle(msg({ type: 'hello', version: '1', redis: { up: true, embedded: true, address: 'x' } }))).toEqual([]);
    expect(t.active).not.toBeNull();
  });

  it('fails the request with a message when the events contradict each other', () => {
    const t = new LiveRunTracker();
    t.begin('r1', spec);
    const [start] = sequentialMessages('r1');
    t.handle(start!);
    const events = t.handle(msg({
      type: 'run-events', requestId: 'r1', runId: 'seq-1',
      ...encodeBatch({ writes: [], reads: [{ atUs: 50, bytes: 4, replies: 1 }], outcomes: [] }),
    }));
    expect(events).toEqual([{ kind: 'failed', message: expect.stringMatching(/before command 0 was written/) }]);
    expect(t.active).toBeNull();
  });

  it('reports backend errors and cancellations', () => {
    const t = new LiveRunTracker();
    t.begin('r1', spec);
    expect(t.handle(msg({ type: 'error', requestId: 'r1', message: 'Run failed: boom' }))).toEqual([{ kind: 'failed', message: 'Run failed: boom' }]);
    t.begin('r2', spec);
    t.markCancelling();
    expect(t.active?.cancelling).toBe(true);
    expect(t.handle(msg({ type: 'cancelled', requestId: 'r2' }))).toEqual([{ kind: 'finished', outcome: 'cancelled' }]);
  });

  it('finishes a server-traced run with its Redis side and byte heads', () => {
    const t = new LiveRunTracker();
    t.begin('r1', { ...spec, serverTrace: true });
    const [start, first, second] = sequentialMessages('r1');
    t.handle(start!);
    t.handle(first!);
    t.handle(second!);
    const serverTrace = {
      clock: { offsetUs: 1000, uncertaintyUs: 12, samples: 8 },
      others: [{ atUs: 30, source: '127.0.0.1:4000', command: 'GET x' }],
      syscalls: { source: 'strace' as const, calls: [{ atUs: 20, call: 'read' as const, result: 40, head: '*2\\r\\n' }] },
    };
    const events = t.handle(msg({ type: 'run-end', requestId: 'r1', runId: 'seq-1', server, serverTrace, serverUs: [25, 80, 140], doneUs: 175 }));
    const event = events[0]!;
    if (event.kind !== 'trace') throw new Error('expected a trace');
    expect(event.doc.commands.map((c) => c.serverUs)).toEqual([25, 80, 140]);
    expect(event.doc.serverTrace).toEqual(serverTrace);
  });

  it('keeps the escaped heads that run-events carry', () => {
    const t = new LiveRunTracker();
    t.begin('r1', spec);
    const h = header('sequential', 3, 'INCR', 'seq-1');
    t.handle(msg({ type: 'run-start', requestId: 'r1', ...h }));
    t.handle(msg({
      type: 'run-events', requestId: 'r1', runId: 'seq-1',
      ...encodeBatch({
        writes: [{ atUs: 5, bytes: 14, commands: 3, head: 'PING\\r\\nPING\\r\\nPING\\r\\n' }],
        reads: [{ atUs: 50, bytes: 21, replies: 3, head: '+PONG\\r\\n+PONG\\r\\n+PONG\\r\\n' }],
        outcomes: [{ reply: 'PONG' }, { reply: 'PONG' }, { reply: 'PONG' }],
      }),
    }));
    const [event] = t.handle(msg({ type: 'run-end', requestId: 'r1', runId: 'seq-1', server, doneUs: 50 }));
    if (event?.kind !== 'trace') throw new Error('expected a trace');
    expect(event.doc.writes[0]!.head).toBe('PING\\r\\nPING\\r\\nPING\\r\\n');
    expect(event.doc.reads[0]!.head).toBe('+PONG\\r\\n+PONG\\r\\n+PONG\\r\\n');
    expect(event.doc.serverTrace).toBeNull();
  });

  it('finishes a chunked run with its memory samples: the same document the recorder saves', () => {
    const memory = memorySamples([0, 10_000, 20_000], [300, 10_300]);
    const recorded = chunkedTrace(10, 5, 100, 20, 'PING', memory);
    const t = new LiveRunTracker();
    t.begin('r1', RunSpecSchema.parse({ command: 'PING', n: 10, modes: ['chunked'], chunk: 5 }));
    t.handle(msg({ type: 'run-start', requestId: 'r1', run: recorded.run, redis: recorded.redis, rtt: recorded.rtt, recorder: recorded.recorder }));
    for (const [w, r] of [[0, 0], [1, 1]] as const) {
      const write = recorded.writes[w]!;
      const read = recorded.reads[r]!;
      t.handle(msg({
        type: 'run-events', requestId: 'r1', runId: recorded.run.id,
        ...encodeBatch({
          writes: [{ atUs: write.atUs, bytes: write.bytes, commands: write.commands }],
          reads: [{ atUs: read.atUs, bytes: read.bytes, replies: read.replies }],
          outcomes: Array.from({ length: 5 }, () => ({ reply: 'PONG' })),
        }),
      }));
    }
    expect(t.active?.progress[0]).toMatchObject({ mode: 'chunked', replied: 10 });
    const [event] = t.handle(msg({ type: 'run-end', requestId: 'r1', runId: recorded.run.id, server: recorded.counts.server, memory, doneUs: recorded.totals.doneUs }));
    if (event?.kind !== 'trace') throw new Error('expected a trace');
    expect(event.doc.memory).toEqual(memory);
    expect(serializeTrace(event.doc)).toBe(serializeTrace(recorded));
  });

  describe('partial runs', () => {
    it('gives the run under way as far as it got, marked in-progress, without disturbing it', () => {
      const t = new LiveRunTracker();
      t.begin('r1', spec);
      const [start, first, second, end] = sequentialMessages('r1');
      t.handle(start!);
      expect(t.partialDocs()).toEqual([]); // nothing sent yet: nothing to draw
      t.handle(first!);
      const [early] = t.partialDocs();
      expect(early!.commands.map((c) => c.repliedUs)).toEqual([50]);
      expect(early!.incomplete).toEqual({ reason: 'in-progress', sent: 1, replied: 1, omitted: ['redis-info'] });
      t.handle(second!);
      expect(t.partialDocs()[0]!.commands).toHaveLength(3);
      const [done] = t.handle(end!);
      expect(done).toMatchObject({ kind: 'trace', doc: { incomplete: null }, firstOfRequest: true });
      expect(t.partialDocs()).toEqual([]);
      expect(t.finishedOfRequest).toBe(1);
    });

    it('keeps a cancelled run as an incomplete trace, before saying the request was cancelled', () => {
      const t = new LiveRunTracker();
      t.begin('r1', { ...spec, memory: true });
      const [start, first] = sequentialMessages('r1');
      t.handle(msg({ ...(start as Extract<ServerMessage, { type: 'run-start' }>), run: { ...(start as Extract<ServerMessage, { type: 'run-start' }>).run, probes: { monitor: false, strace: false, memory: true, kernelTcp: false, heldConnection: false } } }));
      t.handle(first!);
      const events = t.handle(msg({ type: 'cancelled', requestId: 'r1', runId: 'seq-1' }));
      expect(events.map((e) => e.kind)).toEqual(['trace', 'finished']);
      const kept = events[0]!;
      if (kept.kind !== 'trace') return;
      expect(kept.firstOfRequest).toBe(true);
      expect(kept.doc.incomplete).toEqual({ reason: 'cancelled', sent: 1, replied: 1, omitted: ['redis-info', 'memory'] });
      expect(kept.doc.memory).toBeNull();
      // What is kept exports and re-imports with its mark.
      expect(serializeTrace(kept.doc)).toContain('"incomplete":{"reason":"cancelled"');
    });

    it('keeps a failed run with the backend\'s message, and nothing of a run whose events contradict each other', () => {
      const t = new LiveRunTracker();
      t.begin('r1', spec);
      const [start, first] = sequentialMessages('r1');
      t.handle(start!);
      t.handle(first!);
      const [kept] = t.handle(msg({ type: 'error', requestId: 'r1', message: 'Run failed: Redis went away' }));
      expect(kept).toMatchObject({ kind: 'trace', doc: { incomplete: { reason: 'failed', message: 'Run failed: Redis went away' } } });

      t.begin('r2', spec);
      const [start2, first2] = sequentialMessages('r2');
      t.handle(start2!);
      t.handle(first2!);
      const bad = msg({ type: 'run-events', requestId: 'r2', runId: 'seq-1', ...encodeBatch({ writes: [{ atUs: 1, bytes: 40, commands: 1 }], reads: [], outcomes: [] }) });
      expect(t.handle(bad).map((e) => e.kind)).toEqual(['failed']);
    });

    it('keeps what arrived when the connection is lost', () => {
      const t = new LiveRunTracker();
      t.begin('r1', spec);
      const [start, first] = sequentialMessages('r1');
      t.handle(start!);
      t.handle(first!);
      const events = t.abandon('closed');
      expect(events.map((e) => (e.kind === 'trace' ? e.doc.incomplete?.reason : e.kind))).toEqual(['connection-lost', 'failed']);
    });
  });
});
