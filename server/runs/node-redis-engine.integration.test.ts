// The node-redis engine against a real redis-server: sequential, pipeline and chunked runs through
// executeRun give complete traces and touch nothing outside their namespace; auto-pipelining of
// same-tick commands (how many writes node-redis really makes); a raw MULTI/EXEC batch; dependent
// GET-COMPUTE-SET steps; execAsPipeline's bytes (no MULTI/EXEC); a Cancel; a password and a database.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Outcome } from '../../trace/format/trace-builder.ts';
import { captureSocket } from '../drivers/captured-socket.ts';
import { NodeRedisDriver } from '../drivers/node-redis-driver.ts';
import type { WireCommand, WirePlan } from '../drivers/run-driver.ts';
import { SocketProbe } from '../probes/socket-probe.ts';
import { namespaceFor } from '../protocol/command-guard.ts';
import { previewReply } from '../protocol/reply-preview.ts';
import { workloadFor } from '../protocol/run-workload.ts';
import { RedisConnectError } from '../redis/connect-failure.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { RunClock } from '../support/monotonic-clock.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun } from './run-executor.ts';
import { backgroundSettled } from './background-work.ts';

const local = usePrivateRedisSession();
let observer: Redis;
const SENTINEL = 'node-redis-test-sentinel'; // outside pipescope:*, must never be touched

beforeAll(async () => {
  observer = new Redis({ host: local.redis.host, port: local.redis.port });
  await observer.set(SENTINEL, 'untouched');
});

afterAll(() => observer?.disconnect());

const url = () => `redis://${local.redis.host}:${local.redis.port}`;
const values = (outcomes: readonly Outcome[]) => outcomes.map((o) => ('reply' in o ? o.reply : `error: ${o.error}`));

async function expectNothingLeft(): Promise<void> {
  expect(await observer.keys('pipescope:*')).toEqual([]); // the test may use KEYS; Pipescope itself never does
  expect(await observer.get(SENTINEL)).toBe('untouched');
}

describe.each([
  ['sequential', {}],
  ['pipeline', {}],
  ['chunked', { chunk: 64 }],
] as const)('%s runs through executeRun', (mode, extra) => {
  it('INCR: replies 1..n in order, one write per command or per pipeline, keys deleted', async () => {
    const n = 300;
    const doc = await executeRun(local.session, mode, { command: 'INCR', n, valueBytes: 0, engine: 'node-redis', ...extra });
    expect(doc.recorder.client).toMatch(/^node-redis \d+\.\d+\.\d+$/);
    expect(values(doc.commands)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    expect(doc.writes.reduce((sum, w) => sum + w.commands, 0)).toBe(n);
    if (mode === 'sequential') expect(doc.counts.client.writes).toBe(n);
    if (mode === 'chunked') expect(doc.writes.map((w) => w.commands)).toEqual([64, 64, 64, 64, 44]);
    // One pipeline of 300 INCRs is ~16.5 KB: node-redis stops a batch once the socket holds its
    // highWaterMark (16 KiB) and writes the rest on 'drain', so every write but the last is that big.
    if (mode === 'pipeline') {
      expect(doc.counts.client.writes).toBe(2);
      expect(doc.writes[0]!.bytes).toBeGreaterThanOrEqual(16 * 1024);
    }
    await expectNothingLeft();
  });

  it('SET then GET of 100-byte values: OK, then the value', async () => {
    const set = await executeRun(local.session, mode, { command: 'SET', n: 200, valueBytes: 100, engine: 'node-redis', ...extra });
    expect(values(set.commands)).toEqual(Array(200).fill('OK'));
    // Each SET is written in three pieces (header, Buffer value, CRLF), corked: the probe still counts commands.
    expect(set.counts.client.bytesOut).toBeGreaterThan(200 * 100);
    const get = await executeRun(local.session, mode, { command: 'GET', n: 200, valueBytes: 100, engine: 'node-redis', ...extra });
    expect(values(get.commands)).toEqual(Array(200).fill(previewReply('pipescope-'.repeat(10))));
    await expectNothingLeft();
  });
});

it('a MONITORed pipeline of PINGs: one write holding the 20 PINGs and nothing else, complete on the server side', async () => {
  const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 20, valueBytes: 0, engine: 'node-redis', monitor: true });
  expect(doc.serverTrace).not.toBeNull();
  expect(doc.writes).toHaveLength(1);
  expect(doc.writes[0]!.head).toMatch(/^\*1\\r\\n\$4\\r\\nPING\\r\\n\*1/);
  expect(doc.counts.client.bytesOut).toBe(20 * '*1\r\n$4\r\nPING\r\n'.length);
  expect(values(doc.commands)).toEqual(Array(20).fill('PONG'));
  await expectNothingLeft();
});

it('the probe sees every byte node-redis writes in pieces: bytes out and in equal ioredis\' for the same SETs', async () => {
  const spec = { command: 'SET' as const, n: 2000, valueBytes: 100 };
  const nodeRedis = await executeRun(local.session, 'pipeline', { ...spec, engine: 'node-redis' });
  const ioredis = await executeRun(local.session, 'pipeline', { ...spec, engine: 'ioredis' });
  expect(nodeRedis.counts.client.bytesOut).toBe(ioredis.counts.client.bytesOut);
  expect(nodeRedis.counts.client.bytesIn).toBe(ioredis.counts.client.bytesIn);
  expect(nodeRedis.writes.reduce((sum, w) => sum + w.commands, 0)).toBe(2000);
  console.log(`2,000 pipelined SETs of 100 B: node-redis ${nodeRedis.counts.client.writes} writes, ioredis ${ioredis.counts.client.writes}`);
  await expectNothingLeft();
});

it('through the delay proxy: each sequential command pays the added round trip', async () => {
  const doc = await executeRun(local.session, 'sequential', { command: 'INCR', n: 10, valueBytes: 0, engine: 'node-redis', rttMs: 20 });
  expect(values(doc.commands)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
  expect(doc.totals.durationUs).toBeGreaterThanOrEqual(10 * 20_000);
  await expectNothingLeft();
});

it('execAsPipeline writes the same bytes as same-tick commands: no MULTI, no EXEC', async () => {
  const client = createClient({ url: url(), socket: { reconnectStrategy: false } });
  client.on('error', () => {});
  const { socket, pending } = captureSocket(() => client.connect());
  await pending;
  const key = `${namespaceFor('node-redis-exec-as-pipeline')}counter`;
  const written: Buffer[] = [];
  const write = socket.write;
  socket.write = ((chunk: string | Buffer, ...rest: unknown[]) => {
    written.push(Buffer.from(chunk));
    return (write as (...args: unknown[]) => boolean).call(socket, chunk, ...rest);
  }) as typeof socket.write;
  try {
    expect(await client.multi().incr(key).incr(key).ping().execAsPipeline()).toEqual([1, 2, 'PONG']);
    const explicit = Buffer.concat(written).toString();
    written.length = 0;
    expect(await Promise.all([client.incr(key), client.incr(key), client.ping()])).toEqual([3, 4, 'PONG']);
    const sameTick = Buffer.concat(written).toString();
    expect(explicit).toBe(sameTick);
    expect(explicit).not.toMatch(/MULTI|EXEC/);
  } finally {
    socket.write = write;
    await client.del(key);
    client.destroy();
  }
});

describe('on the driver, measured by a SocketProbe', () => {
  let driver: NodeRedisDriver;
  beforeAll(async () => {
    driver = await NodeRedisDriver.open(local.session.target, 'pipescope-node-redis-test');
  });
  afterAll(() => driver?.disconnect());

  /** Runs `body` with a probe on the driver's socket; returns the outcomes and what the probe saw. */
  async function probed(body: (record: (o: Outcome) => void) => Promise<void>) {
    const clock = new RunClock();
    const probe = new SocketProbe(driver.socket, clock, true);
    const outcomes: Outcome[] = [];
    clock.start();
    try {
      await body((o) => outcomes.push(o));
    } finally {
      probe.detach();
    }
    return { ...probe.take(), outcomes };
  }

  it('auto: 1,000 INCRs issued in one tick go out in far fewer than 1,000 writes', async () => {
    const namespace = namespaceFor('node-redis-auto');
    const seen = await probed((record) => driver.auto(workloadFor('INCR', namespace, 0), 1000, record, () => false));
    console.log(`node-redis auto: 1,000 same-tick INCRs in ${seen.writes.length} client writes (${seen.writes.map((w) => `${w.commands} commands, ${w.bytes} B`).join('; ')})`);
    expect(seen.writes.reduce((sum, w) => sum + w.commands, 0)).toBe(1000);
    expect(seen.writes.length).toBeLessThan(100);
    expect(values(seen.outcomes)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
    await observer.del(`${namespace}counter`);
  });

  it('batches: MULTI, 3 × INCR, EXEC in one write: OK, QUEUED × 3, then EXEC\'s array', async () => {
    const key = `${namespaceFor('node-redis-multi')}counter`;
    const batch: WireCommand[] = [['MULTI'], ['INCR', key], ['INCR', key], ['INCR', key], ['EXEC']];
    const plan: WirePlan = { total: batch.length, batches: () => [batch], setup: [] };
    const seen = await probed((record) => driver.batches(plan, record, () => false));
    expect(values(seen.outcomes)).toEqual(['OK', 'QUEUED', 'QUEUED', 'QUEUED', '[1,2,3]']);
    expect(seen.writes).toHaveLength(1);
    expect(seen.writes[0]).toMatchObject({ commands: 5 });
    expect(seen.writes[0]!.head).toMatch(/^\*1\\r\\n\$5\\r\\nMULTI\\r\\n/);
    expect(await observer.get(key)).toBe('3');
    await observer.del(key);
  });

  it('batches: a runtime error inside EXEC is shown in its array; a command refused while queueing aborts EXEC', async () => {
    const key = `${namespaceFor('node-redis-multi-errors')}value`;
    const runtime: WireCommand[] = [['MULTI'], ['SET', key, 'text'], ['INCR', key], ['EXEC']];
    const queueing: WireCommand[] = [['MULTI'], ['SET', key, 'other'], ['INCR'], ['EXEC']];
    const plan: WirePlan = { total: runtime.length + queueing.length, batches: () => [runtime, queueing], setup: [] };
    const seen = await probed((record) => driver.batches(plan, record, () => false));
    expect(values(seen.outcomes)).toEqual([
      'OK', 'QUEUED', 'QUEUED', '["OK",{"error":"ERR value is not an integer or out of range"}]',
      'OK', 'QUEUED', "error: ERR wrong number of arguments for 'incr' command",
      'error: EXECABORT Transaction discarded because of previous errors.',
    ]);
    expect(seen.writes.map((w) => w.commands)).toEqual([4, 4]);
    expect(await observer.get(key)).toBe('text'); // the aborted EXEC changed nothing
    await observer.del(key);
  });

  it('pipeline: an error reply mid-pipeline is recorded in place, the commands after it still ran', async () => {
    const namespace = namespaceFor('node-redis-error');
    const workload = workloadFor('INCR', namespace, 0);
    await observer.set(`${namespace}counter`, 'not a number');
    const seen = await probed((record) => driver.pipeline(workload, 5, 5, record, () => false));
    expect(values(seen.outcomes)).toEqual(Array(5).fill('error: ERR value is not an integer or out of range'));
    expect(seen.writes).toHaveLength(1);
    await observer.del(`${namespace}counter`);
  });

  it('dependent: GET, computeNext, SET, each awaited: two writes per step', async () => {
    const namespace = namespaceFor('node-redis-dependent');
    const workload = workloadFor('GET-COMPUTE-SET', namespace, 0);
    for (const [name, ...args] of workload.setup) await observer.call(name, ...args);
    const seen = await probed((record) => driver.dependent(workload, 4, record, () => false));
    expect(values(seen.outcomes)).toEqual(['0', 'OK', '1', 'OK', '3', 'OK', '7', 'OK']);
    expect(seen.writes).toHaveLength(8);
    expect(await observer.get(`${namespace}value`)).toBe('15');
    await observer.del(`${namespace}value`);
  });
});

it('abort in the tick the commands were issued: nothing reaches Redis, the run fails at once', async () => {
  const driver = await NodeRedisDriver.open(local.session.target, 'pipescope-node-redis-abort');
  const namespace = namespaceFor('node-redis-abort');
  const run = driver.auto(workloadFor('INCR', namespace, 0), 10_000, () => {}, () => false);
  driver.abort();
  await expect(run).rejects.toThrow();
  expect(driver.socket.destroyed).toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await observer.exists(`${namespace}counter`)).toBe(0);
});

// node-redis issues a whole pipeline in one tick (as its users do): a Cancel waits for that tick to end.
it.each(['sequential', 'pipeline'] as const)('a Cancel during a %s run of 100,000 SETs: RunCancelledError, every key deleted', async (mode) => {
  const controller = new AbortController();
  let cancelledAt = 0;
  const running = executeRun(local.session, mode, { command: 'SET', n: 100_000, valueBytes: 8, engine: 'node-redis' }, {
    onBatch: () => {
      if (cancelledAt === 0) {
        cancelledAt = performance.now();
        controller.abort();
      }
    },
  }, controller.signal);
  await expect(running).rejects.toBeInstanceOf(RunCancelledError);
  console.log(`node-redis ${mode}: the run rejected ${(performance.now() - cancelledAt).toFixed(0)} ms after the Cancel`);
  await backgroundSettled(); // its keys go in the clean-up that carries on after the answer
  await expectNothingLeft();
});

it('a pipeline of 100,000 SETs completes (no 5 s write timeout), in writes of at least 16 KiB but the last', async () => {
  const started = performance.now();
  const doc = await executeRun(local.session, 'pipeline', { command: 'SET', n: 100_000, valueBytes: 8, engine: 'node-redis' });
  console.log(`node-redis pipeline: 100,000 SETs in ${doc.writes.length} writes, ${(doc.totals.durationUs / 1000).toFixed(0)} ms (${(performance.now() - started).toFixed(0)} ms with set-up)`);
  expect(doc.commands).toHaveLength(100_000);
  expect(doc.writes.reduce((sum, w) => sum + w.commands, 0)).toBe(100_000);
  expect(doc.writes.slice(0, -1).every((w) => w.bytes >= 16 * 1024)).toBe(true);
  await expectNothingLeft();
});

describe('a Redis with a password, and a database other than 0', () => {
  const PASSWORD = 'node-redis:p@ss/word';
  let redis: PrivateRedis;
  let session: RedisSession;
  beforeAll(async () => {
    redis = await startPrivateRedis();
    const admin = new Redis({ host: redis.host, port: redis.port });
    await admin.config('SET', 'requirepass', PASSWORD);
    admin.disconnect();
    session = await RedisSession.open(targetFromUrl(`redis://:${encodeURIComponent(PASSWORD)}@${redis.host}:${redis.port}`));
  });
  afterAll(async () => {
    await session?.close();
    await redis?.stop();
  });

  it('runs every plain mode with the password', async () => {
    for (const mode of ['sequential', 'pipeline', 'chunked'] as const) {
      const doc = await executeRun(session, mode, { command: 'INCR', n: 50, valueBytes: 0, engine: 'node-redis', chunk: 10 });
      expect(values(doc.commands)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    }
  });

  it('signs in as the ACL user the URL names', async () => {
    const admin = new Redis({ host: redis.host, port: redis.port, password: PASSWORD });
    await admin.call('ACL', 'SETUSER', 'pipescope-nr', 'on', '>user-pass', '~*', '+@all');
    admin.disconnect();
    const userSession = await RedisSession.open(targetFromUrl(`redis://pipescope-nr:user-pass@${redis.host}:${redis.port}`));
    try {
      const doc = await executeRun(userSession, 'pipeline', { command: 'INCR', n: 20, valueBytes: 0, engine: 'node-redis' });
      expect(values(doc.commands)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    } finally {
      await userSession.close();
    }
  });

  it('SELECTs the database the URL names', async () => {
    const target = targetFromUrl(`redis://:${encodeURIComponent(PASSWORD)}@${redis.host}:${redis.port}/3`);
    const driver = await NodeRedisDriver.open(target, 'pipescope-node-redis-db');
    const namespace = namespaceFor('node-redis-db');
    try {
      await driver.auto(workloadFor('INCR', namespace, 0), 2, () => {}, () => false);
    } finally {
      driver.disconnect();
    }
    const admin = new Redis({ host: redis.host, port: redis.port, password: PASSWORD, db: 3 });
    expect(await admin.get(`${namespace}counter`)).toBe('2');
    await admin.del(`${namespace}counter`);
    admin.disconnect();
  });

  it.each([
    ['a wrong password', `redis://:wrong@HOST`, 'wrong-password'],
    ['no password', `redis://HOST`, 'no-password'],
  ])('%s is explained (%s)', async (_, template, kind) => {
    const target = targetFromUrl(template.replace('HOST', `${redis.host}:${redis.port}`));
    const error = await NodeRedisDriver.open(target, 'pipescope-node-redis-auth').then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(RedisConnectError);
    expect((error as RedisConnectError).kind).toBe(kind);
    expect((error as Error).message).not.toContain(PASSWORD);
  });

  it('a closed port is explained (ECONNREFUSED)', async () => {
    const error = await NodeRedisDriver.open(targetFromUrl('redis://127.0.0.1:1'), 'pipescope-node-redis-refused').then(() => null, (e: unknown) => e);
    expect(error).toMatchObject({ name: 'RedisConnectError', kind: 'refused' });
  });
});
