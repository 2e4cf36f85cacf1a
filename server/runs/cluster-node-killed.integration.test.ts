// A node of a real Redis Cluster (3 masters, started by this file for itself: the kill breaks it) killed
// by SIGKILL in the middle of a raw engine run split by node: the run fails with words naming the node,
// and the run's keys on the nodes still up are deleted (the dead one held its keys in memory only).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { executeRun } from './run-executor.ts';
import { backgroundSettled } from './background-work.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  session = await RedisSession.open(targetFromUrl(context.url(0), true));
});
afterAll(async () => {
  await session?.close();
});

it('a node killed mid-run: a clear error naming it, nothing left on the others', async () => {
  const victim = context.cluster.nodes.filter((node) => node.role === 'master')[2]!;
  let keysBeforeKill = 0;
  const run = executeRun(session, 'sequential', { command: 'SET', n: 50_000, valueBytes: 8, engine: 'raw' }, {
    onStart: () => setTimeout(() => {
      void pipescopeKeysOnEveryNode(context.masters.slice(0, 2)).then((keys) => {
        keysBeforeKill = keys.filter((key) => key.includes(':key:')).length;
        process.kill(victim.pid, 'SIGKILL');
      });
    }, 100),
  });
  const error = (await run.catch((e: Error) => e)) as Error;
  expect(error).toBeInstanceOf(Error);
  console.log(`FIGURE node killed mid-run: "${error.message}"`);
  expect(error.message).toMatch(new RegExp(`the connection to cluster node ${victim.host}:${victim.port} failed during the run .*the node stopped answering`));
  expect(keysBeforeKill).toBeGreaterThan(0); // killed mid-run, with the run's keys on the other nodes
  await backgroundSettled();
  // The run's keys are gone from the nodes still up. What may stay is its housekeeping, by design when a
  // run's keys could not all be confirmed deleted (the dead node's slots could not be asked): its lease,
  // left to expire at its TTL, and the lease registry's entry for it, which the key janitor finishes.
  const id = /its keys \(pipescope:([^:]+):\*\) could not be deleted/.exec(error.message)?.[1];
  expect(id).toBeDefined();
  const left = await pipescopeKeysOnEveryNode(context.masters.slice(0, 2));
  expect(left.filter((key) => key !== 'pipescope:leases' && key !== `pipescope:lease:${id}`)).toEqual([]);
  for (const master of context.masters.slice(0, 2)) {
    if ((await master.keys(`pipescope:lease:${id}`)).length > 0) expect(await master.pttl(`pipescope:lease:${id}`)).toBeGreaterThan(0);
  }
});
