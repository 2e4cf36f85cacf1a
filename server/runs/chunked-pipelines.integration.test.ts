// "N commands in pipelines of C" against a real redis-server, with both engines: one socket write per
// pipeline, replies in order across pipelines, and the memory each end used, sampled during the run.
import { expect, it } from 'vitest';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun } from './run-executor.ts';

const local = usePrivateRedisSession();

it.each(['ioredis', 'raw'] as const)('%s: 10,000 INCRs in pipelines of 1,000 are 10 client writes, replies in order', async (engine) => {
  const doc = await executeRun(local.session, 'chunked', { command: 'INCR', n: 10_000, valueBytes: 0, chunk: 1000, engine });
  expect(doc.run).toMatchObject({ mode: 'chunked', chunk: 1000 });
  expect(doc.counts.client.writes).toBe(10);
  expect(doc.writes.map((w) => [w.firstCommand, w.commands])).toEqual(Array.from({ length: 10 }, (_, i) => [i * 1000, 1000]));
  expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array.from({ length: 10_000 }, (_, i) => i + 1));
  // Each pipeline waits for its replies: pipeline k+1 is written after pipeline k's last reply.
  for (let k = 1; k < 10; k++) expect(doc.writes[k]!.atUs).toBeGreaterThanOrEqual(doc.commands[k * 1000 - 1]!.repliedUs);
});

it('the last pipeline holds the remainder', async () => {
  const doc = await executeRun(local.session, 'chunked', { command: 'PING', n: 2500, valueBytes: 0, chunk: 1000 });
  expect(doc.writes.map((w) => w.commands)).toEqual([1000, 1000, 500]);
});

it('memory is sampled, and the sampler\'s own commands are left out of the INFO counts', async () => {
  const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 300, valueBytes: 0, memory: true });
  const memory = doc.memory!;
  expect(memory.server.source).toBe('redis-client-list+info-memory');
  expect(memory.client.source).toBe('node-process-memory');
  expect(memory.server.samples.length).toBeGreaterThan(0);
  expect(memory.client.samples.length).toBeGreaterThan(0);
  for (const s of memory.server.samples) {
    expect(s.totMem).toBeGreaterThan(0);
    expect(s.usedMemory).toBeGreaterThan(s.totMem);
  }
  // 300 sequential PINGs are 300 read events and 300 write events on an otherwise idle Redis, exactly.
  expect(doc.counts.server).toMatchObject({ reads: 300, writes: 300, exclusive: true });
});

it('runs without memory sampling have memory: null', async () => {
  const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0 });
  expect(doc.memory).toBeNull();
});

it('one pipeline of 200,000 SETs costs more memory at its peak than pipelines of 1,000', async () => {
  const spec = { command: 'SET' as const, n: 200_000, valueBytes: 100, memory: true };
  const whole = await executeRun(local.session, 'pipeline', spec);
  const chunked = await executeRun(local.session, 'chunked', { ...spec, chunk: 1000 });
  // Growth over the first sample (taken after a full GC at t0): the run's own memory.
  const heapGrowth = (doc: typeof whole) => {
    const heap = doc.memory!.client.samples.map((s) => s.heapUsed);
    return Math.max(...heap) - heap[0]!;
  };
  // The client holds the whole encoded pipeline and every pending reply at once.
  expect(heapGrowth(whole)).toBeGreaterThan(heapGrowth(chunked));
  expect(whole.memory!.server.samples.length).toBeGreaterThan(0);
  expect(chunked.counts.client.writes).toBe(200);
});

it('one pipeline of 50,000 GETs of 1 KB makes Redis queue more replies than pipelines of 1,000, which bound it', async () => {
  const spec = { command: 'GET' as const, n: 50_000, valueBytes: 1000, memory: true };
  const whole = await executeRun(local.session, 'pipeline', spec);
  const chunked = await executeRun(local.session, 'chunked', { ...spec, chunk: 1000 });
  const peakOmem = (doc: typeof whole) => Math.max(...doc.memory!.server.samples.map((s) => s.omem));
  // Redis answers faster than the client reads 1 KB replies: the rest waits in the connection's output buffer.
  expect(peakOmem(whole)).toBeGreaterThan(peakOmem(chunked));
  // With one pipeline of 1,000 in flight, at most its replies can be queued (1,000 × ~1 KB).
  const replyBytes = chunked.counts.client.bytesIn / chunked.run.n;
  expect(peakOmem(chunked)).toBeLessThanOrEqual(1000 * replyBytes);
  expect(chunked.counts.client.writes).toBe(50);
});
