import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import { header, modeTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { redirectedCounter } from '../test-support/cluster-fixtures.ts';
import { failedOperations, othersInside, runVerdict, wireLine, type VerdictKind } from './run-verdict.ts';

const line = (doc: TraceDocument, kind: VerdictKind) => runVerdict(doc).find((l) => l.kind === kind);
const text = (doc: TraceDocument, kind: VerdictKind) => line(doc, kind)?.parts.map((p) => p.text).join(' · ');

describe('what went on the wire', () => {
  it('says operations vs wire commands', () => {
    expect(wireLine(modeTrace('multi', 10))).toBe('10 INCRs as 12 commands on the wire: MULTI, 10 × INCR, EXEC');
    expect(wireLine(modeTrace('eval', 10))).toBe('10 INCRs as 1 command on the wire: one EVAL');
    expect(wireLine(modeTrace('evalsha', 10))).toBe('10 INCRs as 10 commands on the wire: 10 × EVALSHA');
    expect(wireLine(pipelineTrace(10))).toBe('10 INCRs as 10 commands on the wire: 10 × INCR');
  });

  it('names the source of each count: round trips and writes at the client socket, reads from Redis INFO', () => {
    const parts = line(modeTrace('multi', 10), 'trips')!.parts;
    expect(parts).toEqual([
      { text: '1 round trip', source: 'client socket' },
      { text: '1 client write', source: 'client socket' },
      { text: '1 Redis read', source: 'Redis INFO' },
    ]);
    expect(line(sequentialTrace(3), 'trips')!.parts[0]).toEqual({ text: '3 round trips', source: 'client socket' });
  });
});

describe('atomic or not', () => {
  it('a transaction ran as one block when MONITOR saw no other client inside it', () => {
    const doc = modeTrace('multi', 10, { monitor: true, others: [{ atUs: 150, source: '127.0.0.1:5000', command: 'INCR n' }] });
    expect(othersInside(doc)).toBe(0);
    expect(line(doc, 'atomic')).toMatchObject({ tone: 'good', parts: [{ text: expect.stringMatching(/^atomic: Redis ran the 10 INCRs as one block/), source: 'MONITOR' }] });
  });

  it('a transaction: a client that ran after MULTI but before EXEC ran the queue is not inside it', () => {
    const base = modeTrace('multi', 10, { monitor: true });
    const multiAt = base.commands[0]!.serverUs!;
    const firstQueuedAt = base.commands[1]!.serverUs!;
    expect(multiAt).toBeLessThan(firstQueuedAt);
    // MONITOR shows MULTI when it arrives and the queued commands when EXEC runs them.
    const doc = modeTrace('multi', 10, { monitor: true, others: [{ atUs: (multiAt + firstQueuedAt) / 2, source: '127.0.0.1:5000', command: 'INCR n' }] });
    expect(othersInside(doc)).toBe(0);
    expect(line(doc, 'atomic')!.tone).toBe('good');
  });

  it('without MONITOR says what Redis guarantees, as not measured', () => {
    expect(line(modeTrace('eval', 10), 'atomic')!.parts[0]!.source).toMatch(/not measured/);
  });

  it('a pipeline is not atomic: measured with MONITOR, "could" without', () => {
    const between = modeTrace('pipeline', 10, { monitor: true, others: [{ atUs: 304.5, source: '127.0.0.1:5000', command: 'INCR n' }] });
    expect(text(between, 'atomic')).toBe('not atomic: 1 other client command ran in between');
    expect(text(modeTrace('pipeline', 10, { monitor: true }), 'atomic')).toBe('not atomic: no other client ran in between this time, but one could');
    expect(text(pipelineTrace(10), 'atomic')).toBe('not atomic: other clients could run commands in between');
  });

  it('does not count a script\'s own commands (MONITOR source "lua") as other clients', () => {
    expect(othersInside(modeTrace('multi', 10, { monitor: true, others: [{ atUs: 305, source: 'lua', command: 'INCR k' }] }))).toBe(0);
  });

  it('does not count Pipescope\'s own connections (control, memory sampler) as other clients', () => {
    const others = [
      { atUs: 304.5, source: '127.0.0.1:5001 (Pipescope memory sampler)', command: 'info memory' },
      { atUs: 304.6, source: '127.0.0.1:5002 (Pipescope control)', command: 'ping' },
      { atUs: 304.7, source: '127.0.0.1:5000', command: 'INCR n' },
    ];
    expect(othersInside(modeTrace('pipeline', 10, { monitor: true, others }))).toBe(1);
    expect(text(modeTrace('pipeline', 10, { monitor: true, others }), 'atomic')).toBe('not atomic: 1 other client command ran in between');
  });
});

describe('rolled back or not', () => {
  it('a cluster redirect the client followed is no failure: the command sent in its place answered', () => {
    const doc = redirectedCounter();
    expect(doc.cluster!.redirects.every((r) => r.followedBy !== undefined)).toBe(true);
    expect(failedOperations(doc)).toEqual([]);
    expect(line(doc, 'rollback')).toBeUndefined();
  });

  it('names the commands a cluster run added to follow redirects', () => {
    const doc = redirectedCounter();
    const withAdded = { ...doc, run: { ...doc.run, n: doc.run.n + 3, redirectCommands: { resent: 2, asking: [4] } } };
    expect(wireLine(withAdded)).toBe(`${doc.run.operations} INCRs as ${doc.run.n + 3} commands on the wire: ${doc.run.operations} × INCR, 2 sent again after a redirect, 1 × ASKING`);
  });

  it('a failing INCR in a pipeline: the later operations still ran, read from the keys afterwards', () => {
    const doc = modeTrace('pipeline', 10, { errorAt: 4, keysAfter: true });
    expect(failedOperations(doc)).toEqual([4]);
    expect(text(doc, 'rollback')).toBe('operation 5 failed; operations 6–10 still ran: their keys read 1 afterwards — no rollback');
    expect(line(doc, 'rollback')!.parts[0]!.source).toBe('keys read after the run');
  });

  it('a runtime error inside MULTI/EXEC does not roll back either', () => {
    const doc = modeTrace('multi', 10, { errorAt: 4, keysAfter: true });
    expect(text(doc, 'rollback')).toBe('operation 5 failed; operations 6–10 still ran: their keys read 1 afterwards — no rollback');
  });

  it('a command refused while queueing aborts the transaction: EXECABORT, no key changed', () => {
    const doc = modeTrace('multi', 10, { errorAt: 4, errorKind: 'queueing', keysAfter: true });
    expect(text(doc, 'rollback')).toBe('Redis refused the whole transaction (EXECABORT): no key changed');
    expect(line(doc, 'atomic')).toBeUndefined();
  });

  it('without the keys read back, says what the replies show', () => {
    expect(text(modeTrace('pipeline', 10, { errorAt: 4 }), 'rollback')).toBe('operation 5 failed; operations 6–10 replied normally — no rollback');
    expect(text(modeTrace('pipeline', 10, { errorAt: 9 }), 'rollback')).toBe('operation 10 failed; no operation came after it');
    expect(line(pipelineTrace(10), 'rollback')).toBeUndefined();
  });
});

describe('read, compute, write', () => {
  const gcs = (mode: 'sequential' | 'eval', n: number, wire: number) => {
    const h = header(mode, n, 'GET-COMPUTE-SET');
    const b = new TraceBuilder({ ...h, run: { ...h.run, n: wire, keyPattern: 'k:{i}', valueBytes: 16 } });
    for (let i = 0; i < wire; i++) b.addBatch({ writes: [{ atUs: 10 + i * 100, bytes: 30, commands: 1 }], reads: [{ atUs: 60 + i * 100, bytes: 5, replies: 1 }], outcomes: [{ reply: 'OK' }] });
    return b.finish({ reads: wire, writes: wire, execUs: 1, source: 'redis-info', exclusive: true });
  };

  it('counts 2 round trips per step sequentially, 1 for the whole script', () => {
    expect(text(gcs('sequential', 10, 20), 'dependent')).toBe('2 round trips per step: 10 × 2 = 20 round trips (measured 20)');
    expect(text(gcs('eval', 10, 1), 'dependent')).toBe('read, compute, write on Redis: 1 round trip for all 10 steps');
    expect(wireLine(gcs('sequential', 10, 20))).toBe('10 GET-COMPUTE-SETs as 20 commands on the wire: 10 × (GET, SET)');
  });
});
