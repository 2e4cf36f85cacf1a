// The v3 batching modes against a real redis-server, for both engines: the wire commands and their
// replies (MULTI: OK, QUEUED × n, EXEC's array), MONITOR's view of them, planted errors (no rollback,
// EXECABORT), keys read back, auto-pipelining's writes, GET-COMPUTE-SET's round trips, clean-up.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import type { CommandRecord, TraceDocument } from '../../trace/format/trace-format.ts';
import { wireCommandName } from '../../trace/format/wire-layout.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun, type RunParameters } from './run-executor.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { computeNext } from '../protocol/run-workload.ts';
import { backgroundSettled } from './background-work.ts';

const local = usePrivateRedisSession();
let observer: Redis;

beforeAll(() => {
  observer = new Redis({ host: local.redis.host, port: local.redis.port });
});

afterAll(() => observer?.disconnect());

const value = (c: CommandRecord) => ('reply' in c ? c.reply : `(error) ${c.error}`);
const replies = (doc: TraceDocument) => doc.commands.map(value);

/** The trace round-trips, and each wire command carries the name wire-layout.ts gives it (MONITOR checked it). */
function checkTrace(doc: TraceDocument): void {
  const text = serializeTrace(doc);
  expect(serializeTrace(parseTrace(text))).toBe(text);
}

describe.each(['ioredis', 'raw', 'node-redis'] as const)('%s engine', (engine) => {
  const run = (mode: Parameters<typeof executeRun>[1], spec: RunParameters) => executeRun(local.session, mode, { engine, monitor: true, ...spec });

  it('multi: MULTI, the n commands, EXEC; replies OK, QUEUED × n, the EXEC array; MONITOR runs them at EXEC', async () => {
    const doc = await run('multi', { command: 'INCR', n: 5, valueBytes: 0 });
    expect(doc.run).toMatchObject({ n: 7, operations: 5 });
    expect(replies(doc)).toEqual(['OK', 'QUEUED', 'QUEUED', 'QUEUED', 'QUEUED', 'QUEUED', '[1,2,3,4,5]']);
    const serverUs = doc.commands.map((c) => c.serverUs!);
    expect(serverUs.every((t) => t !== undefined)).toBe(true);
    // MONITOR logs the queued commands when EXEC runs them, as one block between MULTI and EXEC.
    for (let i = 1; i <= 6; i++) expect(serverUs[i]!).toBeGreaterThanOrEqual(serverUs[i - 1]!);
    expect(doc.keysAfter?.keys).toEqual([{ key: doc.run.keyPattern, value: '5' }]);
    checkTrace(doc);
  });

  it('eval: one EVAL doing the n operations; the Lua lines are not other clients', async () => {
    const doc = await run('eval', { command: 'SET', n: 20, valueBytes: 8 });
    expect(doc.run).toMatchObject({ n: 1, operations: 20 });
    expect(replies(doc)).toEqual(['OK']);
    expect(doc.serverTrace!.others.filter((o) => o.source.includes('lua'))).toEqual([]);
    expect(doc.keysAfter!.keys).toHaveLength(20);
    expect(doc.keysAfter!.keys.every((k) => k.value === 'pipescop')).toBe(true);
    expect(doc.totals.opsPerSec).toBeCloseTo((20 * 1e6) / doc.totals.durationUs, 6);
    checkTrace(doc);
  });

  it('evalsha: n EVALSHA calls in one pipeline (the script loaded before t0)', async () => {
    const doc = await run('evalsha', { command: 'INCR', n: 10, valueBytes: 0 });
    expect(doc.run).toMatchObject({ n: 10, operations: 10 });
    expect(replies(doc)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
    expect(doc.counts.client.writes).toBeLessThanOrEqual(2);
    expect(Array.from({ length: 10 }, (_, i) => wireCommandName(doc.run, i))).toEqual(Array(10).fill('EVALSHA'));
    checkTrace(doc);
  });

  it('multikey: one MSET for SET, one MGET for GET', async () => {
    const set = await run('multikey', { command: 'SET', n: 50, valueBytes: 4 });
    expect(set.run).toMatchObject({ n: 1, operations: 50 });
    expect(replies(set)).toEqual(['OK']);
    const get = await run('multikey', { command: 'GET', n: 3, valueBytes: 4 });
    expect(replies(get)).toEqual(['["pipe","pipe","pipe"]']);
    checkTrace(get);
  });

  it('a pipeline of INCRs with a runtime error at K: the error in place, later keys still incremented', async () => {
    const doc = await run('pipeline', { command: 'INCR', n: 6, valueBytes: 0, errorAt: 2 });
    expect(doc.run.injectedError).toEqual({ operation: 2, kind: 'runtime' });
    expect(replies(doc)).toEqual([1, 1, '(error) ERR value is not an integer or out of range', 1, 1, 1]);
    expect(doc.keysAfter!.keys.map((k) => k.value)).toEqual(['1', '1', 'not-an-integer', '1', '1', '1']);
    checkTrace(doc);
  });

  it('the same inside MULTI: EXEC runs the rest, no rollback', async () => {
    const doc = await run('multi', { command: 'INCR', n: 4, valueBytes: 0, errorAt: 1 });
    expect(replies(doc)).toEqual(['OK', 'QUEUED', 'QUEUED', 'QUEUED', 'QUEUED', '[1,{"error":"ERR value is not an integer or out of range"},1,1]']);
    expect(doc.keysAfter!.keys.map((k) => k.value)).toEqual(['1', 'not-an-integer', '1', '1']);
  });

  it('a queueing error inside MULTI: EXECABORT, every key untouched', async () => {
    const doc = await run('multi', { command: 'INCR', n: 4, valueBytes: 0, errorAt: 2, errorKind: 'queueing' });
    expect(replies(doc)).toEqual([
      'OK', 'QUEUED', 'QUEUED', "(error) ERR wrong number of arguments for 'incr' command", 'QUEUED',
      '(error) EXECABORT Transaction discarded because of previous errors.',
    ]);
    expect(doc.keysAfter!.keys.map((k) => k.value)).toEqual([null, null, null, null]);
    // MONITOR: MULTI and EXEC ran; the queued commands never did.
    expect(doc.commands.map((c) => c.serverUs !== undefined)).toEqual([true, false, false, false, false, true]);
    checkTrace(doc);
  });

  it('a queueing error in a plain pipeline: that INCR refused, the others run', async () => {
    const doc = await run('pipeline', { command: 'INCR', n: 3, valueBytes: 0, errorAt: 1, errorKind: 'queueing' });
    expect(replies(doc)).toEqual([1, "(error) ERR wrong number of arguments for 'incr' command", 1]);
    expect(doc.keysAfter!.keys.map((k) => k.value)).toEqual(['1', null, '1']);
  });

  it('eval with a runtime error: the script stops there, what ran before stays', async () => {
    const doc = await run('eval', { command: 'INCR', n: 4, valueBytes: 0, errorAt: 2 });
    expect(replies(doc)[0]).toMatch(/^\(error\) ERR value is not an integer/);
    expect(doc.keysAfter!.keys.map((k) => k.value)).toEqual(['1', '1', 'not-an-integer', null]);
  });

  it('GET-COMPUTE-SET: sequential writes 2n times, eval once; both compute the same chain', async () => {
    const sequential = await run('sequential', { command: 'GET-COMPUTE-SET', n: 10, valueBytes: 0 });
    expect(sequential.run).toMatchObject({ n: 20, operations: 10 });
    expect(sequential.counts.client.writes).toBe(20);
    expect(replies(sequential).slice(0, 4)).toEqual(['0', 'OK', '1', 'OK']);
    const script = await run('eval', { command: 'GET-COMPUTE-SET', n: 10, valueBytes: 0 });
    expect(script.counts.client.writes).toBe(1);
    expect(replies(script)).toEqual([String(2 ** 10 - 1)]);
    expect(script.keysAfter!.keys[0]!.value).toBe(String(2 ** 10 - 1));
  });

  it('INFO counts exactly the commands Redis ran for the run (script calls in, refused commands out): exclusive', async () => {
    const cases: [Parameters<typeof executeRun>[1], RunParameters][] = [
      ['multi', { command: 'INCR', n: 5, valueBytes: 0 }],
      ['multi', { command: 'INCR', n: 5, valueBytes: 0, errorAt: 1, errorKind: 'queueing' }],
      ['multi', { command: 'INCR', n: 5, valueBytes: 0, errorAt: 1 }],
      ['eval', { command: 'INCR', n: 5, valueBytes: 0, errorAt: 3 }],
      ['eval', { command: 'GET-COMPUTE-SET', n: 5, valueBytes: 0 }],
      ['evalsha', { command: 'INCR', n: 5, valueBytes: 0, errorAt: 2, errorKind: 'queueing' }],
      ['multikey', { command: 'GET', n: 5, valueBytes: 2 }],
      ['pipeline', { command: 'INCR', n: 5, valueBytes: 0, errorAt: 4, errorKind: 'queueing' }],
      ['sequential', { command: 'GET-COMPUTE-SET', n: 5, valueBytes: 0 }],
    ];
    for (const [mode, spec] of cases) {
      const doc = await run(mode, { ...spec, monitor: false, memory: false });
      expect([mode, spec, doc.counts.server.exclusive]).toEqual([mode, spec, true]);
    }
  });

  it('GET-COMPUTE-SET in Lua writes the same text as the client computes (60 steps, past 2^53)', async () => {
    let expected = '0';
    for (let i = 0; i < 60; i++) expected = computeNext(expected);
    const doc = await run('eval', { command: 'GET-COMPUTE-SET', n: 60, valueBytes: 0, monitor: false });
    expect(replies(doc)).toEqual([expected]);
    expect(doc.keysAfter!.keys[0]!.value).toBe(expected);
  });

  it('every new mode deletes its keys and leaves a key outside the namespace untouched', async () => {
    await observer.set('customer:7', 'precious');
    const before = await observer.keys('*');
    for (const mode of ['multi', 'eval', 'evalsha', 'multikey'] as const) await run(mode, { command: 'SET', n: 30, valueBytes: 4, monitor: false });
    await run('multi', { command: 'INCR', n: 30, valueBytes: 0, errorAt: 5, monitor: false });
    await run('multi', { command: 'INCR', n: 30, valueBytes: 0, errorAt: 5, errorKind: 'queueing', monitor: false });
    await run('eval', { command: 'GET-COMPUTE-SET', n: 5, valueBytes: 0, monitor: false });
    await run('sequential', { command: 'GET-COMPUTE-SET', n: 5, valueBytes: 0, monitor: false });
    if (engine === 'ioredis') await run('auto', { command: 'SET', n: 30, valueBytes: 4, monitor: false });
    expect((await observer.keys('*')).sort()).toEqual(before.sort());
    expect(await observer.get('customer:7')).toBe('precious');
  });
});

describe('through the delay proxy (20 ms RTT)', () => {
  it('GET-COMPUTE-SET: sequential takes at least 2n round trips, one EVAL about one', async () => {
    const n = 5;
    const rttUs = 20_000;
    const sequential = await executeRun(local.session, 'sequential', { command: 'GET-COMPUTE-SET', n, valueBytes: 0, rttMs: 20 });
    const script = await executeRun(local.session, 'eval', { command: 'GET-COMPUTE-SET', n, valueBytes: 0, rttMs: 20 });
    console.log(`GET-COMPUTE-SET × ${n} at 20 ms RTT: sequential ${(sequential.totals.durationUs / 1000).toFixed(1)} ms, eval ${(script.totals.durationUs / 1000).toFixed(1)} ms`);
    expect(sequential.totals.durationUs).toBeGreaterThanOrEqual(2 * n * rttUs);
    expect(script.totals.durationUs).toBeGreaterThanOrEqual(rttUs);
    expect(script.totals.durationUs).toBeLessThan(2 * rttUs);
  });

  it.each(['ioredis', 'raw', 'node-redis'] as const)('chunked with a pause (%s): each pause lies between one chunk\'s last reply and the next write', async (engine) => {
    const doc = await executeRun(local.session, 'chunked', { command: 'PING', n: 9, valueBytes: 0, chunk: 3, chunkPauseMs: 30, engine });
    expect(doc.run.chunkPauseMs).toBe(30);
    for (const first of [3, 6]) expect(doc.commands[first]!.sentUs - doc.commands[first - 1]!.repliedUs).toBeGreaterThanOrEqual(29_000);
  });
});

describe('Cancel', () => {
  it.each([
    ['multi', { command: 'SET', n: 300_000, valueBytes: 8 }],
    ['auto', { command: 'SET', n: 300_000, valueBytes: 8 }],
    ['sequential', { command: 'GET-COMPUTE-SET', n: 1000, valueBytes: 0, rttMs: 20 }],
    ['evalsha', { command: 'SET', n: 300_000, valueBytes: 8, engine: 'raw' }],
  ] as [Parameters<typeof executeRun>[1], RunParameters][])('%s %j stops, and its keys are deleted', async (mode, spec) => {
    const controller = new AbortController();
    const running = executeRun(local.session, mode, { ...spec, cold: true }, { onStart: () => setTimeout(() => controller.abort(), 30) }, controller.signal);
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    await backgroundSettled(); // a Cancel is answered at once; the keys go in the run's clean-up, right after
    expect(await observer.keys('pipescope:*')).toEqual([]);
  });
});

describe('auto-pipelining', () => {
  it('ioredis: 1,000 same-tick commands go in far fewer than 1,000 client writes', async () => {
    const doc = await executeRun(local.session, 'auto', { command: 'INCR', n: 1000, valueBytes: 0, monitor: true });
    console.log(`ioredis auto, 1,000 INCRs: ${doc.counts.client.writes} client writes, ${doc.counts.client.reads} reads`);
    expect(doc.counts.client.writes).toBeLessThan(100);
    expect(replies(doc)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
  });

  it('raw: refused with a clear error', async () => {
    await expect(executeRun(local.session, 'auto', { command: 'PING', n: 10, valueBytes: 0, engine: 'raw' })).rejects.toThrow(/client library/);
  });
});
