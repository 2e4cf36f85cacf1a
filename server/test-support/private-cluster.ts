// For integration tests: a real private Redis Cluster (3 masters, from Debian's redis-server) started
// before the file's tests and stopped after them, a plain connection to each master for looking at
// what each node holds (KEYS is a test's privilege), and a cluster client for planting keys.
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { startPrivateCluster, type PrivateCluster } from '../redis/private-redis-cluster.ts';

export interface PrivateClusterContext {
  cluster: PrivateCluster;
  /** One plain connection per master, in slot order. */
  masters: Redis[];
  /** Routes each key command to its node. */
  client: Cluster;
  /** redis://host:port of the `i`-th node. */
  url(i: number): string;
}

/** Call at the top of a test file; read the fields inside tests (they are set in beforeAll). */
export function usePrivateCluster(replicas = 0): PrivateClusterContext {
  const context = {} as PrivateClusterContext;
  beforeAll(async () => {
    context.cluster = await startPrivateCluster({ replicas });
    const masters = context.cluster.nodes.filter((node) => node.role === 'master');
    context.masters = masters.map((node) => new Redis({ host: node.host, port: node.port }));
    context.client = new Cluster([{ host: masters[0]!.host, port: masters[0]!.port }]);
    context.url = (i) => `redis://${context.cluster.nodes[i]!.host}:${context.cluster.nodes[i]!.port}`;
  });
  afterAll(async () => {
    for (const master of context.masters ?? []) master.disconnect();
    context.client?.disconnect();
    await context.cluster?.stop();
  });
  return context;
}

/** Every key under pipescope: on every master, sorted (KEYS per node: a test may). */
export async function pipescopeKeysOnEveryNode(masters: readonly Redis[]): Promise<string[]> {
  const all = await Promise.all(masters.map((master) => master.keys('pipescope:*')));
  return all.flat().sort();
}
