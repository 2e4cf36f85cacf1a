// The live WebSocket endpoint, end to end over real sockets against a real redis-server: validation
// errors, the queue, streaming, cancellation, and a browser-side TraceBuilder fed from the wire.
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_PATH, ServerMessageSchema, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { serializeTrace, verifyTrace } from '../../../trace/format/trace-io.ts';
import { compareRepeats } from '../../../trace/derive/run-pairs.ts';
import { startApp } from '../http/http-app.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';
import { usePrivateRedisApp } from '../../test-support/private-redis-session.ts';
import { startPrivateRedis } from '../../redis/private-redis-server.ts';
import { keysLeftAfter } from '../../test-support/run-keys.ts';

const live = usePrivateRedisApp();

/** The shared test client (validates and keeps every message, builds traces as the browser does), on this file's live.app. */
class LiveClient extends LiveTestClient {
  constructor() {
    super(live.app.url);
  }
}

describe('validation', () => {
  it.each([
    ['not json', 'Message is not valid JSON.'],
    [{ type: 'run', requestId: 'a', spec: { command: 'FLUSHALL', n: 1, modes: ['pipeline'] } }, 'spec.command'],
    [{ type: 'run', requestId: 'b', spec: { command: 'PING', n: 2_000_000, modes: ['pipeline'] } }, 'n must be at most 1,000,000'],
    [{ type: 'run', requestId: 'c', spec: { command: 'SET', n: 10, valueBytes: 2 * 1024 * 1024, modes: ['pipeline'] } }, 'valueBytes must be at most 1048576 (1 MiB)'],
    [{ type: 'run', requestId: 'd', spec: { command: 'PING', n: 10, modes: ['turbo'] } }, 'spec.modes.0'],
    [{ type: 'explode' }, 'Invalid message'],
  ])('%j gets a clear error and the server stays up', async (message, expected) => {
    const client = await new LiveClient().open();
    client.send(message);
    const error = await client.next((m) => m.type === 'error');
    expect(error).toMatchObject({ type: 'error' });
    expect((error as { message: string }).message).toContain(expected);
    client.send({ type: 'run', requestId: 'ok', spec: { command: 'PING', n: 3, modes: ['pipeline'] } });
    await client.next((m) => m.type === 'request-done');
    client.close();
  });

  it('refuses a cancel for a run that is not its own', async () => {
    const client = await new LiveClient().open();
    client.send({ type: 'cancel', requestId: 'nobody' });
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ message: 'No run nobody to cancel.' });
    client.close();
  });
});

it('both modes stream events that build verified traces, sequential first', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'both', spec: { command: 'INCR', n: 500, modes: ['pipeline', 'sequential'], repeats: 1 } });
  await client.next((m) => m.type === 'request-done');
  const [sequential, pipeline] = client.tracesFor('both');
  expect(sequential!.run.mode).toBe('sequential');
  expect(pipeline!.run.mode).toBe('pipeline');
  for (const doc of [sequential!, pipeline!]) {
    expect(serializeTrace(verifyTrace(JSON.parse(serializeTrace(doc))))).toBe(serializeTrace(doc));
    expect(doc.commands.map((c) => ('reply' in c ? c.reply : null))).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
  }
  expect(sequential!.counts.client.writes).toBe(500);
  expect(pipeline!.counts.client.writes).toBeLessThanOrEqual(2);
  client.close();
});

it('all three modes build verified traces in order: sequential, pipeline, chunked; then a memory repeat of each samples memory', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'three', spec: { command: 'SET', n: 3000, valueBytes: 100, modes: ['chunked', 'pipeline', 'sequential'], chunk: 1000, repeats: 1 } });
  await client.next((m) => m.type === 'request-done');
  const docs = client.tracesFor('three');
  const modes = [['sequential', undefined, 3000], ['pipeline', undefined, 1], ['chunked', 1000, 3]];
  expect(docs.map((d) => [d.run.mode, d.run.chunk, d.counts.client.writes])).toEqual([...modes, ...modes]);
  for (const [i, doc] of docs.entries()) {
    expect(serializeTrace(verifyTrace(JSON.parse(serializeTrace(doc))))).toBe(serializeTrace(doc));
    // The timed runs sample nothing; the memory repeats (chunks: memory can move) do, and say what they are.
    const memoryRepeat = i >= 3;
    expect([doc.run.memoryRepeat ?? false, doc.run.probes.memory, doc.probeCosts?.memory !== undefined]).toEqual([memoryRepeat, memoryRepeat, memoryRepeat]);
    if (!memoryRepeat) continue;
    expect(doc.memory?.server.samples.length).toBeGreaterThan(0);
    expect(doc.memory?.client.samples.length).toBeGreaterThan(0);
  }
  client.close();
});

it('runs a fixed count of rounds, the order alternating, each trace saying its round and place; a run of a second or more is not repeated', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'five', spec: { command: 'INCR', n: 10, modes: ['pipeline', 'sequential'], repeats: 3 } });
  const done = await client.next((m) => m.type === 'request-done');
  expect(done).toMatchObject({ rounds: 3, stop: 'planned' });
  const docs = client.tracesFor('five');
  expect(docs.map((d) => `${d.run.mode} ${d.run.repeat}:${d.run.round?.position}`)).toEqual([
    'sequential 0:0', 'pipeline 0:1', 'pipeline 1:0', 'sequential 1:1', 'sequential 2:0', 'pipeline 2:1',
  ]);
  expect(docs.every((d) => d.run.round?.plan === 'fixed')).toBe(true);
  expect(docs.every((d) => d.run.warmup?.commands === 10 && d.kernelTcp !== null)).toBe(true);
  client.send({ type: 'run', requestId: 'slow', spec: { command: 'PING', n: 3, modes: ['sequential'], rttMs: 400, repeats: 5, memory: false } });
  expect(await client.next((m) => m.type === 'request-done' && m.requestId === 'slow')).toMatchObject({ rounds: 1, stop: 'slow' });
  expect(client.tracesFor('slow').map((d) => d.run.repeat)).toEqual([0]);
  client.close();
});

it('until certain: interleaved pairs in alternating order, stopping at the first checkpoint where the interval excludes 1, and saying so', async () => {
  const client = await new LiveClient().open();
  // 10 INCRs through 2 ms of added RTT: ten round trips against one, so every pair goes to the pipeline
  // and the first checkpoint (10 pairs) is certain.
  client.send({ type: 'run', requestId: 'sure', spec: { command: 'INCR', n: 10, modes: ['sequential', 'pipeline'], rttMs: 2, memory: false, kernelTcp: false } });
  const done = await client.next((m) => m.type === 'request-done' && m.requestId === 'sure');
  expect(done).toMatchObject({ rounds: 10, stop: 'certain' });
  const docs = client.tracesFor('sure');
  expect(docs).toHaveLength(20);
  expect(docs.map((d) => d.run.mode)).toEqual(Array.from({ length: 10 }, (_, r) => (r % 2 === 0 ? ['sequential', 'pipeline'] : ['pipeline', 'sequential'])).flat());
  expect(docs.every((d) => d.run.round?.plan === 'until-certain')).toBe(true);
  const verdict = compareRepeats(docs.filter((d) => d.run.mode === 'sequential'), docs.filter((d) => d.run.mode === 'pipeline'));
  expect(verdict).toMatchObject({ outcome: 'a-slower', read: 10, wins: 10 });
  expect(verdict.interval!.lo).toBeGreaterThan(1);
  client.close();
});

it('a sweep streams its progress, then its document', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'sweep', requestId: 'sweep', spec: { command: 'PING', depths: [1, 8, 64], perPoint: 640, repeats: 2 } });
  await client.next((m) => m.type === 'request-done');
  const mine = client.messages.filter((m) => 'requestId' in m && m.requestId === 'sweep');
  expect(mine.map((m) => m.type)).toEqual(['queued', 'sweep-start', ...Array<string>(6).fill('sweep-progress'), 'sweep-end', 'request-done']);
  const end = mine.find((m) => m.type === 'sweep-end')!;
  if (end.type !== 'sweep-end') throw new Error('unreachable');
  expect(end.document.points.map((p) => [p.depth, p.runs.length])).toEqual([[1, 2], [8, 2], [64, 2]]);
  expect(end.document.points.map((p) => p.runs[0]!.counts.server.reads)).toEqual([640, 80, 10]);
  client.close();
});

it('a sweep that breaks its bounds is refused with the schema\'s message', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'sweep', requestId: 'bad', spec: { command: 'PING', depths: [1, 2], perPoint: 1000, repeats: 3, rttMs: 1000 } });
  expect(await client.next((m) => m.type === 'error')).toMatchObject({ message: expect.stringContaining('spec.rttMs: at this RTT the sweep would wait more than 10 minutes') });
  client.close();
});

it('a server-traced raw run arrives whole: bytes, execution times and syscalls', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'traced', spec: { command: 'PING', n: 3, modes: ['sequential', 'pipeline'], engine: 'raw', serverTrace: true, repeats: 1 } });
  await client.next((m) => m.type === 'request-done');
  const [sequential, pipeline] = client.tracesFor('traced');
  for (const doc of [sequential!, pipeline!]) {
    expect(serializeTrace(verifyTrace(JSON.parse(serializeTrace(doc))))).toBe(serializeTrace(doc));
    expect(doc.commands.every((c) => c.serverUs !== undefined)).toBe(true);
    expect(doc.serverTrace).not.toBeNull();
  }
  expect(sequential!.writes.map((w) => w.head)).toEqual(['PING\\r\\n', 'PING\\r\\n', 'PING\\r\\n']);
  expect(pipeline!.writes.map((w) => w.head)).toEqual(['PING\\r\\nPING\\r\\nPING\\r\\n']);
  client.close();
});

it('a run longer than the health-check interval is still the only traffic in its INFO counts', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'slow', spec: { command: 'PING', n: 8, modes: ['sequential'], rttMs: 500, repeats: 1 } });
  await client.next((m) => m.type === 'request-done');
  const [doc] = client.tracesFor('slow');
  expect(doc!.totals.durationUs).toBeGreaterThan(3_000_000); // longer than STATUS_INTERVAL_MS
  expect(doc!.counts.server).toMatchObject({ reads: 8, writes: 8, exclusive: true });
  // A quiet 50 ms (a reply on its way) sends no frame: it used to send ~20 empty ones a second.
  const frames = client.messages.filter((m) => m.type === 'run-events' && m.requestId === 'slow');
  const empty = frames.filter((m) => m.type === 'run-events' && m.writes.length + m.reads.length + m.outcomes.length + (m.toServer?.length ?? 0) + (m.fromServer?.length ?? 0) === 0);
  expect(empty).toHaveLength(0);
  expect(frames.length).toBeLessThanOrEqual(4 * 8 + 1); // at most: the write, its hand-over to Redis, Redis's reply, the read
  client.close();
});

it('a second request waits in the queue and is told its position', async () => {
  const first = await new LiveClient().open();
  const second = await new LiveClient().open();
  first.send({ type: 'run', requestId: 'long', spec: { command: 'PING', n: 3000, modes: ['sequential'], repeats: 1 } });
  await first.next((m) => m.type === 'run-start');
  second.send({ type: 'run', requestId: 'next', spec: { command: 'PING', n: 5, modes: ['pipeline'] } });
  expect(await second.next((m) => m.type === 'queued')).toMatchObject({ position: 1 });
  await second.next((m) => m.type === 'request-done');
  const done = first.messages.findIndex((m) => m.type === 'request-done');
  expect(done).toBeGreaterThan(-1); // the first finished before the second could start
  expect(second.messages.filter((m) => m.type === 'queued').map((m) => (m as { position: number }).position)).toEqual([1, 0]);
  first.close();
  second.close();
});

describe('cancellation', () => {
  it('cancel stops a long run, reports it, and leaves no keys', async () => {
    const client = await new LiveClient().open();
    client.send({ type: 'run', requestId: 'big', spec: { command: 'SET', n: 1_000_000, valueBytes: 8, modes: ['sequential'], confirmLongRun: true } });
    await client.next((m) => m.type === 'run-events');
    client.send({ type: 'cancel', requestId: 'big' });
    await client.next((m) => m.type === 'cancelled');
    const observer = new Redis({ host: live.redis.host, port: live.redis.port });
    expect(await keysLeftAfter(observer)).toEqual([]); // deleted in the background once 'cancelled' is sent
    observer.disconnect();
    client.close();
  });

  it('closing the tab cancels its run, so the next request starts at once', async () => {
    const leaving = await new LiveClient().open();
    leaving.send({ type: 'run', requestId: 'gone', spec: { command: 'PING', n: 1_000_000, modes: ['sequential'], confirmLongRun: true } });
    await leaving.next((m) => m.type === 'run-events');
    leaving.socket.terminate();
    const staying = await new LiveClient().open();
    staying.send({ type: 'run', requestId: 'after', spec: { command: 'PING', n: 10, modes: ['pipeline'] } });
    await staying.next((m) => m.type === 'request-done');
    staying.close();
  });
});

it('tells browsers when Redis goes away, and a run then fails with a message instead of hanging', async () => {
  const doomed = await startPrivateRedis();
  const doomedApp = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${doomed.host}:${doomed.port}` });
  try {
    const socket = new WebSocket(doomedApp.url.replace('http', 'ws').replace(/\/$/, LIVE_PATH));
    const messages: ServerMessage[] = [];
    const arrived = (match: (m: ServerMessage) => boolean) =>
      new Promise<ServerMessage>((resolve) => {
        const check = () => {
          const found = messages.find(match);
          if (found) resolve(found);
          else socket.once('message', check);
        };
        check();
      });
    socket.on('message', (data) => messages.push(ServerMessageSchema.parse(JSON.parse(data.toString()))));
    expect(await arrived((m) => m.type === 'hello')).toMatchObject({ redis: { up: true, embedded: false } });
    await doomed.stop();
    const down = await arrived((m) => m.type === 'redis-status');
    expect(down).toMatchObject({ redis: { up: false } });
    expect((down as { redis: { message: string } }).redis.message).toContain(`Redis at ${doomed.host}:${doomed.port} is unreachable`);
    socket.send(JSON.stringify({ type: 'run', requestId: 'r', spec: { command: 'PING', n: 5, modes: ['pipeline'] } }));
    expect(await arrived((m) => m.type === 'error')).toMatchObject({ requestId: 'r', message: expect.stringMatching(/^Run failed: /) });
    socket.close();
  } finally {
    await doomedApp.close();
  }
});

it('the v3 modes run live: wire commands, keys read back, EXECABORT with its unexecuted commands', async () => {
  const client = await new LiveClient().open();
  client.send({ type: 'run', requestId: 'modes', spec: { command: 'SET', n: 4, valueBytes: 3, modes: ['multi', 'eval', 'evalsha', 'multikey', 'auto'], repeats: 1, monitor: true } });
  expect(await client.end('modes')).toMatchObject({ type: 'request-done' });
  const docs = client.tracesFor('modes');
  expect(docs.map((d) => [d.run.mode, d.run.n, d.run.operations])).toEqual([['multi', 6, 4], ['eval', 1, 4], ['evalsha', 4, 4], ['multikey', 1, 4], ['auto', 4, 4]]);
  expect(docs.map((d) => d.keysAfter?.keys.length ?? null)).toEqual([4, 4, 4, null, null]);
  client.send({ type: 'run', requestId: 'abort', spec: { command: 'INCR', n: 3, modes: ['multi'], errorAt: 1, errorKind: 'queueing', repeats: 1, monitor: true } });
  expect(await client.end('abort')).toMatchObject({ type: 'request-done' });
  const [aborted] = client.tracesFor('abort');
  expect(aborted!.commands.at(-1)).toMatchObject({ error: 'EXECABORT Transaction discarded because of previous errors.' });
  expect(aborted!.commands.map((c) => c.serverUs !== undefined)).toEqual([true, false, false, false, true]);
  expect(aborted!.keysAfter!.keys.map((k) => k.value)).toEqual([null, null, null]);
  expect(serializeTrace(verifyTrace(JSON.parse(serializeTrace(aborted!))))).toBe(serializeTrace(aborted!));
  client.close();
});
