// A run's housekeeping on a real Redis Cluster (started by the test): the lease and its registry entry,
// usually on two nodes, taken and released through the housekeeping cluster client; a run's keys spread
// over every slot deleted one slot per UNLINK, each on its node; the keys read back after a run from
// their nodes. No pipescope:* key left on any node, a user's key unchanged.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { LEASE_REGISTRY, leaseKeyFor, namespaceFor } from '../protocol/command-guard.ts';
import { workloadFor } from '../protocol/run-workload.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { readKeysAfter } from './keys-after.ts';
import { deleteRunKeys } from './run-cleanup.ts';
import { RunLease, leaseOwner } from './run-lease.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(2)));
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall();
  await context.client.set('user:precious', 'kept');
});

/** The index of the master holding `key` (KEYS on each plain connection: EXISTS would answer MOVED elsewhere). */
async function holder(key: string): Promise<number> {
  const found = await Promise.all(context.masters.map((master) => master.keys(key)));
  return found.findIndex((keys) => keys.length === 1);
}

it('a lease and its registry entry, on their own nodes, are taken, extended and released', async () => {
  const id = 'lx0ddddd-0000000d';
  const key = leaseKeyFor(id);
  expect(calculateSlot(key)).not.toBe(calculateSlot(LEASE_REGISTRY)); // two slots: a one-node pipeline would be refused
  const lease = await RunLease.take(session.keyspace(), id);
  expect(await context.client.get(key)).toBe(leaseOwner());
  expect(await context.client.sismember(LEASE_REGISTRY, id)).toBe(1);
  expect(await holder(key)).toBeGreaterThanOrEqual(0);
  await lease.cover(120_000);
  expect(await context.client.pttl(key)).toBeGreaterThan(120_000);
  await lease.release(true);
  expect(await context.client.exists(key)).toBe(0);
  expect(await context.client.sismember(LEASE_REGISTRY, id)).toBe(0);
  expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  expect(await context.client.get('user:precious')).toBe('kept');
});

it('a run\'s keys over every master and thousands of slots are deleted, one slot per UNLINK', async () => {
  const namespace = namespaceFor('lx0fffff-0000000f');
  const workload = workloadFor('SET', namespace, 8);
  const n = 2500;
  const keys = [...workload.keys(n)];
  await Promise.all(keys.map((key) => context.client.set(key, 'v')));
  const perNode = await Promise.all(context.masters.map(async (master) => (await master.keys(`${namespace}*`)).length));
  expect(perNode.every((count) => count > 500)).toBe(true);
  expect(new Set(keys.map(calculateSlot)).size).toBeGreaterThan(2000);
  await deleteRunKeys(session.keyspace(), namespace, workload, n);
  expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  expect(await context.client.get('user:precious')).toBe('kept');
});

it('the keys after a run are read back from their nodes, a non-string by its type', async () => {
  const namespace = namespaceFor('lx0ggggg-0000000g');
  const workload = workloadFor('SET', namespace, 8);
  const keys = [...workload.keys(6)];
  for (const [i, key] of keys.entries()) if (i !== 3 && i !== 4) await context.client.set(key, `value-${i}`);
  await context.client.lpush(keys[4]!, 'a list');
  const holders = new Set(await Promise.all(keys.map(holder)));
  expect(holders.size).toBeGreaterThan(1); // the keys really sit on several nodes
  const after = await readKeysAfter(session.keyspace(), namespace, workload, 6);
  expect(after.keys).toEqual(keys.map((key, i) => ({ key, value: i === 3 ? null : i === 4 ? '(list)' : `value-${i}` })));
  await deleteRunKeys(session.keyspace(), namespace, workload, 6);
  expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
});
