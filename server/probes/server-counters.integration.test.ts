// Checks the INFO-delta correction against a real Redis: between two snapshots with nothing in
// between, the corrected deltas must be zero, and a known workload must be counted exactly.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { serverDelta, snapshotServer } from './server-counters.ts';

let redis: PrivateRedis;
let control: Redis;
let other: Redis;

beforeAll(async () => {
  redis = await startPrivateRedis();
  control = new Redis({ host: redis.host, port: redis.port });
  other = new Redis({ host: redis.host, port: redis.port });
  await Promise.all([control.ping(), other.ping()]);
});

afterAll(async () => {
  control?.disconnect();
  other?.disconnect();
  await redis?.stop();
});

it('an empty run counts zero read and write events and is exclusive', async () => {
  const before = await snapshotServer(control, 'pipescope:test:');
  const after = await snapshotServer(control, 'pipescope:test:');
  expect(serverDelta(before, after, 0, 'PING')).toEqual({ reads: 0, writes: 0, execUs: 0, exclusive: true });
});

it('five ping-pong commands on another connection are five reads and five writes', async () => {
  const before = await snapshotServer(control, 'pipescope:test:');
  for (let i = 0; i < 5; i++) await other.ping();
  const after = await snapshotServer(control, 'pipescope:test:');
  const delta = serverDelta(before, after, 5, 'PING');
  expect(delta).toMatchObject({ reads: 5, writes: 5, exclusive: true });
  expect(delta.execUs).toBeGreaterThanOrEqual(0);
  expect(before.commandUsec.get('ping')).toBeGreaterThanOrEqual(0); // the set-up PINGs were counted
});

it('traffic that is not the run makes the counts non-exclusive', async () => {
  const before = await snapshotServer(control, 'pipescope:test:');
  await other.ping();
  await other.ping();
  const after = await snapshotServer(control, 'pipescope:test:');
  expect(serverDelta(before, after, 1, 'PING').exclusive).toBe(false);
});
