// Pipescope pointed at a node of a real Redis Cluster (started by the test): the cluster is recognised
// from any node and its topology read; a run, in every mode and engine, is refused before anything is
// written, with words that say why (never a MOVED dressed as "operation 1 failed"); no pipescope:* key
// is left on any node and a user's key is unchanged; the key janitor walks every master and deletes a
// dead run's keys spread over every slot, one slot per command, keeping a live run's. All of it also
// as the least-privilege user of docs/your-own-redis.md, with the three grants a cluster adds, on every node;
// without them, opening fails with words within its bound instead of hanging.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RUN_MODES } from '../../trace/format/trace-format.ts';
import { LEASE_REGISTRY } from '../protocol/command-guard.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { readTopology } from '../redis/cluster-topology.ts';
import { Redis } from 'ioredis';
import { RedisSession } from '../redis/redis-session.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { pipescopeKeysOnEveryNode, usePrivateCluster } from '../test-support/private-cluster.ts';
import { ClusterNotSupportedError, routedOnCluster } from './cluster-refusal.ts';
import { KeyJanitor } from './key-janitor.ts';
import { takeLeasedKey } from './leased-key.ts';
import { leaseOwner } from './run-lease.ts';
import { executeRun } from './run-executor.ts';
import { projectRoot } from '../support/project-root.ts';

const context = usePrivateCluster();
let session: RedisSession;

beforeAll(async () => {
  // The second master, by URL, as a user would name any node of their cluster.
  session = await RedisSession.open(targetFromUrl(context.url(1)));
});
afterAll(async () => {
  await session?.close();
});
beforeEach(async () => {
  for (const master of context.masters) await master.flushall(); // the test's own cluster
  await context.client.set('user:precious', 'kept');
});

describe('a node of a cluster, named by URL', () => {
  it('is recognised, and the topology read from CLUSTER SHARDS', () => {
    const topology = session.cluster!;
    expect(topology.source).toBe('cluster-shards');
    expect(topology.nodes.map((node) => [node.role, node.address, node.slots])).toEqual(
      context.cluster.nodes.map((node) => ['master', `${node.host}:${node.port}`, [node.slots]]),
    );
    expect(topology.nodes.map((node) => node.id)).toEqual(context.cluster.nodes.map((node) => node.id));
  });

  it('without CLUSTER SHARDS (an older server, or an ACL without it), CLUSTER SLOTS gives the same nodes', async () => {
    const node = context.cluster.nodes[1]!;
    await context.masters[1]!.call('ACL', 'SETUSER', 'slots-only', 'on', '>cluster-test-secret', '-@all', '+hello', '+auth', '+cluster|slots');
    const connection = new Redis({ host: node.host, port: node.port, username: 'slots-only', password: 'cluster-test-secret' });
    try {
      const topology = await readTopology(connection);
      expect(topology.source).toBe('cluster-slots');
      expect(topology.nodes).toEqual(session.cluster!.nodes);
    } finally {
      connection.disconnect();
      await context.masters[1]!.call('ACL', 'DELUSER', 'slots-only');
    }
  });

  it.each(RUN_MODES.filter((mode) => mode !== 'chunked'))('a %s run is refused before anything is written, with words', async (mode) => {
    for (const engine of ['ioredis', 'node-redis', 'raw'] as const) {
      if (routedOnCluster(mode, { engine, command: 'SET' })) continue; // sent: cluster-raw and cluster-clients integration tests
      const error = await executeRun(session, mode, { command: 'SET', n: 10, valueBytes: 16, engine }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(ClusterNotSupportedError);
      expect((error as Error).message).toMatch(/is a node of a Redis Cluster \(3 masters\).*Nothing was sent and no key was written/);
      expect((error as Error).message).not.toMatch(/operation \d+ failed|no rollback|MOVED \d+/);
    }
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('a chunked run, and a real client\'s leased key, are refused the same way', async () => {
    await expect(executeRun(session, 'chunked', { command: 'INCR', n: 100, valueBytes: 0, chunk: 10 })).rejects.toThrow(ClusterNotSupportedError);
    await expect(takeLeasedKey(session)).rejects.toThrow(/a real client's writes to a cluster/);
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});

describe('the key janitor on a cluster', () => {
  /** n keys of run `id`, spread over the slots (and so over every master). */
  async function plant(id: string, n: number): Promise<void> {
    await Promise.all(Array.from({ length: n }, (_, i) => context.client.set(`pipescope:${id}:key:${i}`, 'v')));
  }

  it('walks every master and deletes a dead run\'s keys, per slot, keeping a live run\'s and a user\'s', async () => {
    await plant('lx0aaaaa-0000000a', 600); // no lease: a run killed before its lease was read back, or from before leases
    await plant('lx0bbbbb-0000000b', 30); // registered, its lease expired
    await context.client.sadd(LEASE_REGISTRY, 'lx0bbbbb-0000000b');
    await plant('lx0ccccc-0000000c', 30); // another machine's run, under way
    await context.client.set('pipescope:lease:lx0ccccc-0000000c', 'elsewhere.example 4242 123', 'PX', 60_000);
    await context.client.sadd(LEASE_REGISTRY, 'lx0ccccc-0000000c');
    await plant('lx0eeeee-0000000e', 30); // this very process's run
    await context.client.set('pipescope:lease:lx0eeeee-0000000e', leaseOwner(), 'PX', 60_000);
    // The dead run's keys really are on every master, over many slots.
    const perNode = await Promise.all(context.masters.map(async (master) => (await master.keys('pipescope:lx0aaaaa*')).length));
    expect(perNode.every((count) => count > 100)).toBe(true);
    expect(new Set(Array.from({ length: 600 }, (_, i) => calculateSlot(`pipescope:lx0aaaaa-0000000a:key:${i}`))).size).toBeGreaterThan(500);

    const janitor = new KeyJanitor(() => session.keyspace(), () => {});
    const report = await janitor.sweep();
    expect(report).toMatchObject({ runs: 2, deleted: 630, live: 2 });
    const left = await pipescopeKeysOnEveryNode(context.masters);
    expect(left.filter((key) => /lx0(aaaaa|bbbbb)/.test(key))).toEqual([]);
    expect(left.filter((key) => key.includes('lx0ccccc'))).toHaveLength(31);
    expect(left.filter((key) => key.includes('lx0eeeee'))).toHaveLength(31);
    expect(await context.client.smembers(LEASE_REGISTRY)).toEqual(['lx0ccccc-0000000c']);
    expect(await context.client.get('user:precious')).toBe('kept');
  });

  it('the registry check: a registered run whose owner on this host is gone loses its keys on every node', async () => {
    await plant('lx0ddddd-0000000d', 200);
    await context.client.set('pipescope:lease:lx0ddddd-0000000d', `${hostname()} 999999999 1`, 'PX', 60_000);
    await context.client.sadd(LEASE_REGISTRY, 'lx0ddddd-0000000d');
    const janitor = new KeyJanitor(() => session.keyspace(), () => {});
    expect(await janitor.checkRegistry()).toMatchObject({ runs: 1, deleted: 201 });
    expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
  });
});

describe('as the documented least-privilege user, created on every node', () => {
  it('the line of docs/your-own-redis.md plus +cluster|shards +cluster|slots +cluster|info: recognised, run by both libraries, refused, cleaned', async () => {
    const line = /^ACL SETUSER pipescope .*$/m.exec(readFileSync(join(projectRoot(), 'docs/your-own-redis.md'), 'utf8'))?.[0];
    expect(line).toBeDefined();
    const rules = line!.split(' ').slice(3).map((rule) => (rule === '>CHOOSE-A-PASSWORD' ? '>cluster-test-secret' : rule));
    expect(rules).toContain('>cluster-test-secret');
    for (const master of context.masters) await master.call('ACL', 'SETUSER', 'pipescope', ...rules, '+cluster|shards', '+cluster|slots', '+cluster|info');
    const node = context.cluster.nodes[2]!;
    const limited = await RedisSession.open(targetFromUrl(`redis://pipescope:cluster-test-secret@${node.host}:${node.port}`));
    try {
      expect(limited.cluster?.source).toBe('cluster-shards');
      expect(limited.cluster?.nodes).toHaveLength(3);
      await expect(executeRun(limited, 'multi', { command: 'SET', n: 10, valueBytes: 16 })).rejects.toThrow(ClusterNotSupportedError);
      // The libraries' cluster clients carry the credentials to every node they connect to.
      for (const engine of ['ioredis', 'node-redis'] as const) {
        const doc = await executeRun(limited, 'auto', { command: 'SET', n: 30, valueBytes: 16, engine });
        expect(doc.cluster!.connections).toHaveLength(3);
        expect(doc.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(Array(30).fill('OK'));
      }
      await Promise.all(Array.from({ length: 300 }, (_, i) => context.client.set(`pipescope:lx0fffff-0000000f:key:${i}`, 'v')));
      const report = await new KeyJanitor(() => limited.keyspace(), () => {}).sweep();
      expect(report).toMatchObject({ runs: 1, deleted: 300 });
      expect(await pipescopeKeysOnEveryNode(context.masters)).toEqual([]);
      expect(await context.client.get('user:precious')).toBe('kept');
    } finally {
      await limited.close();
      for (const master of context.masters) await master.call('ACL', 'DELUSER', 'pipescope');
    }
  });
});

it('a user without the cluster grants: opening fails with words within its bound, not a hang', async () => {
  for (const master of context.masters) await master.call('ACL', 'SETUSER', 'limited', 'on', '>cluster-test-secret', '~pipescope:*', '-@all', '+hello', '+auth', '+client|setname', '+ping', '+info', '+cluster|shards', '+cluster|slots');
  const node = context.cluster.nodes[0]!;
  try {
    const started = Date.now();
    const error = await RedisSession.open(targetFromUrl(`redis://limited:cluster-test-secret@${node.host}:${node.port}`)).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/the cluster client was not ready within 10 s/);
    expect(Date.now() - started).toBeLessThan(20_000);
  } finally {
    for (const master of context.masters) await master.call('ACL', 'DELUSER', 'limited');
  }
});
