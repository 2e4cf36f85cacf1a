// Data safety: Pipescope pointed at a Redis that already holds 10,000 keys of every type (strings
// plain, numeric and binary; lists, sets, sorted sets, hashes in both encodings; streams with a
// consumer group; HyperLogLog, bitmaps, geo; some with a TTL; some named like Pipescope's own
// namespace or like redis-benchmark's keys; a few in database 1) runs every mode of every command on
// both engines, the traced, delayed, cold and sampled variants, every preset of the page, a sweep with
// its redis-benchmark reference, and a cancelled run. Afterwards every key is byte-identical by DUMP,
// none is missing or added, TTLs only ran down, and no run key is left.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeBatch } from '../trace/protocol/live-protocol.ts';
import { NETWORK_PRESETS, applyPreset } from '../web/src/state/network-presets.ts';
import { validateRunForm, type RunFormState } from '../web/src/state/run-form-state.ts';
import { findFreePort } from '../server/support/free-port.ts';
import { buildServer, LiveClient, startBackend, until, type Backend } from '../server/test-support/backend-process.ts';
import { figure, observe, requestEnd } from './hard-support.ts';
import { isPipescopesOwn, keysLeftAfter } from '../server/test-support/run-keys.ts';

const KEYS = 10_000;

let dir: string;
let redisServer: ChildProcess;
let port: number;
let backend: Backend;
let data: Redis;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  dir = mkdtempSync(join(tmpdir(), 'pipescope-data-safety-'));
  port = await findFreePort();
  redisServer = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  data = await until('the test Redis', async () => observe({ host: '127.0.0.1', port }).catch(() => undefined), 10_000);
  await fill(data);
  backend = await startBackend(['--redis-url', `redis://127.0.0.1:${port}`]);
});

afterAll(async () => {
  await backend?.stop();
  data?.disconnect();
  redisServer?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

/** 10,000 keys, a type per key in turn, written with a pipeline per 500. */
async function fill(redis: Redis): Promise<void> {
  const binary = (i: number) => Buffer.from(Array.from({ length: 64 }, (_, j) => (i * 31 + j * 7) % 256));
  for (let from = 0; from < KEYS; from += 500) {
    const p = redis.pipeline();
    for (let i = from; i < from + 500; i++) {
      // Names that a careless clean-up might hit: Pipescope's own prefix, redis-benchmark's defaults.
      const name = i % 97 === 0 ? `pipescope:not-a-run:${i}` : i % 89 === 0 ? `key:${String(i).padStart(12, '0')}` : `user:${i}`;
      switch (i % 14) {
        case 0: p.set(name, `plain value ${i}`); break;
        case 1: p.set(name, String(i * 1000)); break; // int-encoded
        case 2: p.set(name, binary(i)); break;
        case 3: p.rpush(name, 'a', 'b', String(i)); break; // listpack
        case 4: p.rpush(name, ...Array.from({ length: 200 }, (_, j) => `item-${j}-${'x'.repeat(70)}`)); break; // quicklist
        case 5: p.sadd(name, 1, 2, 3, i); break; // intset
        case 6: p.sadd(name, ...Array.from({ length: 300 }, (_, j) => `member-${j}`)); break; // hashtable
        case 7: p.zadd(name, 1, 'one', 2, 'two', i, `m${i}`); break; // listpack
        case 8: p.zadd(name, ...Array.from({ length: 300 }, (_, j) => [j, `z-${j}`]).flat()); break; // skiplist
        case 9: p.hset(name, { field: 'value', n: String(i) }); break; // listpack
        case 10: p.hset(name, Object.fromEntries(Array.from({ length: 300 }, (_, j) => [`f${j}`, `v${j}`]))); break; // hashtable
        case 11: p.xadd(name, `${i + 1}-0`, 'event', 'created', 'n', String(i)); p.xgroup('CREATE', name, 'readers', '0'); break;
        case 12: p.pfadd(name, 'a', 'b', 'c', String(i)); break;
        case 13: p.setbit(name, i % 1000, 1); p.geoadd(`${name}:geo`, 13.361389, 38.115556, 'Palermo'); break;
      }
      if (i % 5 === 0) p.pexpire(name, 3_600_000 + i);
    }
    await p.exec();
  }
  await redis.select(1);
  for (let i = 0; i < 100; i++) await redis.set(`db1:${i}`, `in database 1: ${i}`);
  await redis.select(0);
}

interface Snapshot {
  dumps: Map<string, Buffer>;
  ttls: Map<string, number>;
}

async function snapshot(redis: Redis, db: number): Promise<Snapshot> {
  await redis.select(db);
  const dumps = new Map<string, Buffer>();
  const ttls = new Map<string, number>();
  let cursor = '0';
  for (let i = 0; i < 100_000; i++) {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    for (const key of keys) {
      const [dump, ttl] = await Promise.all([redis.dumpBuffer(key), redis.pttl(key)]);
      if (dump) dumps.set(key, dump);
      ttls.set(key, ttl);
    }
    cursor = next;
    if (cursor === '0') break;
  }
  await redis.select(0);
  return { dumps, ttls };
}

/** The spec the page sends for a preset (its form, validated as the page does). */
function presetSpec(preset: (typeof NETWORK_PRESETS)[number]): unknown {
  const form: RunFormState = { command: 'PING', n: '1000', valueBytes: '16', mode: 'both', chunk: '100', rttMs: '0', jitterMs: '0', monitor: false, strace: false, cold: false, repeats: '1', engine: 'ioredis',
    modes: ['sequential', 'pipeline'], chunkPauseMs: '0', plantError: false, errorAt: '0', errorKind: 'runtime', neighborRate: '0', neighborCommand: 'INCR', heldConnection: false, memory: false,
    clusterKeys: 'spread', clusterSplit: 'parallel' };
  const result = validateRunForm(applyPreset(form, preset));
  if (!result.ok) throw new Error(`preset ${preset.id}: ${JSON.stringify(result.errors)}`);
  return { ...result.spec, repeats: 1 };
}

it(`${KEYS.toLocaleString('en-US')} keys of every type stay byte-identical through every kind of run`, async () => {
  const before = await snapshot(data, 0);
  const beforeDb1 = await snapshot(data, 1);
  expect(before.dumps.size).toBeGreaterThanOrEqual(KEYS);
  const startedAt = Date.now();

  const requests: [string, { type: 'run' | 'sweep'; spec: unknown }][] = [];
  for (const command of ['PING', 'INCR', 'SET', 'GET'] as const) {
    for (const engine of ['ioredis', 'raw'] as const) {
      requests.push([`${command} ${engine}`, { type: 'run', spec: { command, n: 2000, valueBytes: 64, engine, modes: ['sequential', 'pipeline', 'chunked'], chunk: 100, repeats: 1 } }]);
    }
  }
  requests.push(['SET traced, sampled, kernel TCP', { type: 'run', spec: { command: 'SET', n: 500, valueBytes: 16, monitor: true, memory: true, kernelTcp: true, modes: ['sequential', 'pipeline'], repeats: 1 } }]);
  requests.push(['GET delayed with jitter, cold', { type: 'run', spec: { command: 'GET', n: 50, valueBytes: 1000, rttMs: 2, jitterMs: 1, cold: true, modes: ['sequential', 'pipeline', 'chunked'], chunk: 7, repeats: 1 } }]);
  requests.push(['INCR repeated', { type: 'run', spec: { command: 'INCR', n: 100, modes: ['sequential', 'pipeline'], repeats: 3 } }]);
  // The cluster presets are offered only on a cluster (this Redis is a single one, which refuses them).
  for (const preset of NETWORK_PRESETS.filter((p) => !p.cluster)) requests.push([`preset ${preset.id}`, { type: 'run', spec: presetSpec(preset) }]);
  requests.push(['SET sweep with its redis-benchmark reference', { type: 'sweep', spec: { command: 'SET', valueBytes: 16, depths: [1, 4, 16], perPoint: 500, repeats: 1, reference: true } }]);
  requests.push(['GET sweep with its reference', { type: 'sweep', spec: { command: 'GET', valueBytes: 16, depths: [1, 8], perPoint: 500, repeats: 1, reference: true } }]);

  const client = await LiveClient.open(backend.wsUrl);
  const outcomes: string[] = [];
  for (const [name, request] of requests) {
    const requestId = name.replace(/\W+/g, '-').slice(0, 60);
    client.send({ ...request, requestId });
    const end = await requestEnd(client, requestId, 600_000);
    outcomes.push(`${name}: ${end.message.type}${end.message.type === 'error' ? ` (${end.message.message})` : ''}`);
  }
  // And a run cancelled while its pipeline is built, and one cancelled while its replies arrive.
  for (const [requestId, wait] of [['cancel-early', 500], ['cancel-late', 0]] as const) {
    client.send({ type: 'run', requestId, spec: { command: 'SET', n: 1_000_000, valueBytes: 64, modes: ['pipeline'] } });
    await client.next((m) => m.type === 'run-start' && m.requestId === requestId); // right before t0: building
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    else await client.next((m) => m.type === 'run-events' && m.requestId === requestId && decodeBatch(m).reads.length > 0, 0, 600_000);
    client.send({ type: 'cancel', requestId });
    outcomes.push(`${requestId}: ${(await requestEnd(client, requestId)).message.type}`);
  }
  client.close();
  expect(outcomes.filter((o) => !/: (request-done|cancelled)$/.test(o))).toEqual([]);
  // A cancelled run answers at once and deletes its keys in the background: wait for that (bounded).
  expect(await keysLeftAfter(data, 30_000, isPipescopesOwn)).toEqual([]);

  const after = await snapshot(data, 0);
  const afterDb1 = await snapshot(data, 1);
  const elapsed = Date.now() - startedAt;
  const changed = [...before.dumps].filter(([key, dump]) => !after.dumps.get(key)?.equals(dump)).map(([key]) => key);
  const added = [...after.dumps.keys()].filter((key) => !before.dumps.has(key));
  const ttlWrong = [...before.ttls].filter(([key, ttl]) => {
    const now = after.ttls.get(key)!;
    return ttl === -1 ? now !== -1 : now > ttl || now < ttl - elapsed - 5_000;
  });
  expect(changed).toEqual([]);
  expect(added).toEqual([]); // no run key left, nothing else made
  expect(ttlWrong).toEqual([]);
  expect([...beforeDb1.dumps].filter(([key, dump]) => !afterDb1.dumps.get(key)?.equals(dump))).toEqual([]);
  figure('data safety', `${before.dumps.size.toLocaleString('en-US')} keys in db 0 and ${beforeDb1.dumps.size} in db 1 byte-identical by DUMP after ${requests.length + 2} requests (${outcomes.length} outcomes: ${outcomes.filter((o) => o.endsWith('request-done')).length} done, ${outcomes.filter((o) => o.endsWith('cancelled')).length} cancelled); 0 changed, 0 missing, 0 added, TTLs only ran down`);
});
