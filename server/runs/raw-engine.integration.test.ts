// The raw engine against a real redis-server: the docs' netcat example measured, replies matched in
// order, the same socket counts as ioredis for the same pipeline, and the batch encoded before the run.
import { expect, it } from 'vitest';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { namespaceFor } from '../protocol/command-guard.ts';
import { RawDriver } from '../drivers/raw-driver.ts';
import { encode } from '../protocol/resp-encoder.ts';
import { deleteRunKeys } from './run-cleanup.ts';
import { executeRun } from './run-executor.ts';
import { workloadFor } from '../protocol/run-workload.ts';

const local = usePrivateRedisSession();

it('netcat example: PING\\r\\nPING\\r\\nPING\\r\\n in one write, +PONG three times back', async () => {
  const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 3, valueBytes: 0, engine: 'raw', serverTrace: true });
  expect(doc.writes).toEqual([{ atUs: doc.writes[0]!.atUs, bytes: 18, firstCommand: 0, commands: 3, head: 'PING\\r\\nPING\\r\\nPING\\r\\n' }]);
  expect(doc.reads.map((r) => r.head).join('')).toBe('+PONG\\r\\n'.repeat(3));
  expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(['PONG', 'PONG', 'PONG']);
  const reads = doc.serverTrace!.syscalls!.calls.filter((c) => c.call === 'read');
  expect(reads.map((r) => r.head)).toEqual(['PING\\r\\nPING\\r\\nPING\\r\\n']);
  expect(doc.recorder.client).toMatch(/^raw socket/);
});

it.each(['sequential', 'pipeline'] as const)('%s: replies matched in order', async (mode) => {
  const doc = await executeRun(local.session, mode, { command: 'INCR', n: 2000, valueBytes: 0, engine: 'raw' });
  expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
});

it('counts equal ioredis\' for the same pipeline of SETs', async () => {
  const spec = { command: 'SET' as const, n: 5000, valueBytes: 100 };
  const raw = await executeRun(local.session, 'pipeline', { ...spec, engine: 'raw' });
  const ioredis = await executeRun(local.session, 'pipeline', { ...spec, engine: 'ioredis' });
  expect(raw.counts.client.writes).toBe(ioredis.counts.client.writes);
  expect(raw.counts.client.bytesOut).toBe(ioredis.counts.client.bytesOut);
  expect(raw.counts.client.bytesIn).toBe(ioredis.counts.client.bytesIn);
  expect(raw.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
});

it('counts equal ioredis\' for the same SETs in pipelines of 1,000', async () => {
  const spec = { command: 'SET' as const, n: 5000, valueBytes: 100, chunk: 1000 };
  const raw = await executeRun(local.session, 'chunked', { ...spec, engine: 'raw' });
  const ioredis = await executeRun(local.session, 'chunked', { ...spec, engine: 'ioredis' });
  expect(raw.counts.client.writes).toBe(5);
  expect(raw.counts.client.writes).toBe(ioredis.counts.client.writes);
  expect(raw.counts.client.bytesOut).toBe(ioredis.counts.client.bytesOut);
  expect(raw.counts.client.bytesIn).toBe(ioredis.counts.client.bytesIn);
  expect(raw.writes.map((w) => w.commands)).toEqual(ioredis.writes.map((w) => w.commands));
});

it('writes each pipeline as a slice of one buffer encoded before the run', async () => {
  const driver = await RawDriver.open(local.session.target);
  try {
    const workload = workloadFor('SET', namespaceFor('raw-prepare-test'), 10);
    await driver.prepare(workload, 2500, () => false);
    const written: Buffer[] = [];
    const write = driver.socket.write.bind(driver.socket);
    driver.socket.write = ((chunk: Buffer) => (written.push(chunk), write(chunk))) as typeof driver.socket.write;
    const outcomes: Outcome[] = [];
    await driver.pipeline(workload, 2500, 1000, (o) => outcomes.push(o), () => false);
    const encodedLength = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => encode([workload.command, ...workload.argsFor(from + i)]).length).reduce((a, b) => a + b, 0);
    expect(written.map((w) => w.length)).toEqual([encodedLength(0, 1000), encodedLength(1000, 2000), encodedLength(2000, 2500)]);
    expect(new Set(written.map((w) => w.buffer)).size).toBe(1);
    expect(outcomes).toHaveLength(2500);
    expect(outcomes.every((o) => 'reply' in o && o.reply === 'OK')).toBe(true);
  } finally {
    driver.disconnect();
    await deleteRunKeys(local.session.keyspace(), namespaceFor('raw-prepare-test'), workloadFor('SET', namespaceFor('raw-prepare-test'), 10), 2500);
  }
});
