// Runs real batches against a real redis-server on a free port and checks what the probes measured.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../trace/format/trace-builder.ts';
import { parseTrace, serializeTrace } from '../../trace/format/trace-io.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { executeRun, type RunEnd } from './run-executor.ts';
import { keysLeftAfter } from '../test-support/run-keys.ts';

let redis: PrivateRedis;
let session: RedisSession;
let observer: Redis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  session = await RedisSession.open(targetFromUrl(`redis://${redis.host}:${redis.port}`, true));
  observer = new Redis({ host: redis.host, port: redis.port });
});

afterAll(async () => {
  observer?.disconnect();
  await session?.close();
  await redis?.stop();
});

async function runKeys(): Promise<string[]> {
  return observer.keys('pipescope:*'); // the test may use KEYS; Pipescope itself never does
}

describe('100 PINGs', () => {
  it('pipelined: at most 2 client writes and at most 5 Redis read events', async () => {
    const doc = await executeRun(session, 'pipeline', { command: 'PING', n: 100, valueBytes: 0 });
    expect(doc.counts.client.writes).toBeLessThanOrEqual(2);
    expect(doc.counts.server.reads).toBeLessThanOrEqual(5);
    expect(doc.counts.server.exclusive).toBe(true);
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array(100).fill('PONG'));
    expect(doc.counts.client.bytesOut).toBe(100 * '*1\r\n$4\r\nPING\r\n'.length);
    expect(doc.counts.client.bytesIn).toBe(100 * '+PONG\r\n'.length);
  });

  it('sequential: one client write and read, one Redis read and write event per command', async () => {
    const doc = await executeRun(session, 'sequential', { command: 'PING', n: 100, valueBytes: 0 });
    expect(doc.counts.client.writes).toBe(100);
    expect(doc.counts.client.reads).toBe(100);
    expect(doc.counts.server.reads).toBe(100);
    expect(doc.counts.server.writes).toBe(100);
    // Ping-pong: each command is written only after the previous reply arrived.
    for (let i = 1; i < doc.commands.length; i++) {
      expect(doc.commands[i]!.sentUs).toBeGreaterThanOrEqual(doc.commands[i - 1]!.repliedUs);
    }
  });
});

describe.each(['sequential', 'pipeline'] as const)('%s runs', (mode) => {
  it('reply in order, times consistent, and the trace round-trips', async () => {
    const doc = await executeRun(session, mode, { command: 'INCR', n: 50, valueBytes: 0 });
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    for (const command of doc.commands) expect(command.repliedUs).toBeGreaterThanOrEqual(command.sentUs);
    expect(doc.totals.durationUs).toBe(Math.max(...doc.commands.map((c) => c.repliedUs)));
    expect(doc.totals.opsPerSec).toBeCloseTo((50 * 1e6) / doc.totals.durationUs, 6);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);
  });

  it('removes its keys and leaves keys outside its namespace alone', async () => {
    await observer.set('customer:42', 'precious');
    await observer.set('pipescope-not-a-run', 'also precious');
    for (const command of ['SET', 'INCR', 'GET'] as const) {
      const doc = await executeRun(session, mode, { command, n: 1200, valueBytes: 32 });
      expect(doc.commands).toHaveLength(1200);
    }
    expect(await runKeys()).toEqual([]);
    expect(await observer.get('customer:42')).toBe('precious');
    expect(await observer.get('pipescope-not-a-run')).toBe('also precious');
  });
});

it('GET reads the value set up before t0, shortened in the trace', async () => {
  const doc = await executeRun(session, 'pipeline', { command: 'GET', n: 3, valueBytes: 100 });
  const reply = (doc.commands[0] as { reply: string }).reply;
  expect(reply.startsWith('pipescope-pipescope-')).toBe(true);
  expect(reply.endsWith('… (100 bytes)')).toBe(true);
  // The setup SET ran before t0, so it is in neither the client nor the server counts.
  expect(doc.counts.client.writes).toBe(1);
  expect(doc.counts.server.reads).toBeLessThanOrEqual(2);
});

it('a SET with a 1 MiB value is carried by one write and counted byte for byte', async () => {
  const doc = await executeRun(session, 'sequential', { command: 'SET', n: 2, valueBytes: 1024 * 1024 });
  expect(doc.writes.map((w) => w.commands)).toEqual([1, 1]);
  expect(doc.writes[0]!.bytes).toBeGreaterThan(1024 * 1024);
  expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(['OK', 'OK']);
});

it('streams the same events the trace is built from', async () => {
  let builder: TraceBuilder | undefined;
  let end: RunEnd | undefined;
  const doc = await executeRun(session, 'sequential', { command: 'PING', n: 300, valueBytes: 0, kernelTcp: true }, {
    onStart: (header) => (builder = new TraceBuilder(header)),
    onBatch: (_runId, batch) => builder!.addBatch(structuredClone(batch)),
    onEnd: (_runId, runEnd) => (end = runEnd),
  });
  expect(serializeTrace(builder!.finish(end!.server, end!))).toBe(serializeTrace(doc));
});

it('a cancelled run stops, says so, and still removes its keys', async () => {
  const controller = new AbortController();
  let batches = 0;
  const running = executeRun(session, 'sequential', { command: 'SET', n: 1_000_000, valueBytes: 8 }, {
    onBatch: () => {
      if (++batches === 3) controller.abort();
    },
  }, controller.signal);
  await expect(running).rejects.toBeInstanceOf(RunCancelledError);
  expect(await keysLeftAfter(observer)).toEqual([]); // deleted in the background: the Cancel is answered at once
  expect(await session.status()).toMatchObject({ up: true });
});
