// Opens the Redis a process will measure: the one named by a URL, or else a private redis-server
// that Pipescope starts now, restarts if it dies (private-redis-keeper.ts) and stops on close; or,
// with `cluster`, a private Redis Cluster kept the same way (private-cluster-keeper.ts).
import { readFileSync } from 'node:fs';
import { PrivateRedisKeeper, privateTarget } from './private-redis-keeper.ts';
import { startPrivateRedis } from './private-redis-server.ts';
import { RedisSession } from './redis-session.ts';
import { redactUrl, targetFromUrl } from './redis-target.ts';
import { PrivateClusterKeeper, privateClusterTarget } from './private-cluster-keeper.ts';
import { startPrivateCluster } from './private-redis-cluster.ts';
import { describeTopology } from './cluster-topology.ts';
import { RedisTargets, type OpenedRedis } from './redis-targets.ts';

export type { OpenedRedis } from './redis-targets.ts';


export interface OpenRedisOptions {
  /** A PEM file of CA certificates to trust for rediss:// (--redis-ca), besides Node's own. */
  caFile?: string;
  /** Start a private Redis Cluster instead of a private redis-server (--cluster), with this many replicas per master. */
  cluster?: { replicas: number };
}

export async function openRedis(redisUrl: string | undefined, options: OpenRedisOptions = {}): Promise<OpenedRedis> {
  if (redisUrl) {
    const target = targetFromUrl(redisUrl, false, options.caFile ? readCa(options.caFile) : undefined);
    const session = await RedisSession.open(target).catch((error: Error) => {
      throw new Error(`Could not connect to ${redactUrl(redisUrl)}: ${error.message}`);
    });
    const kind = session.cluster ? `a node of a Redis Cluster (${describeTopology(session.cluster)}), Redis ${session.info.version},` : `Redis ${session.info.version}`;
    return { session, description: `${kind} at ${target.address}`, close: () => session.close() };
  }
  if (options.cluster) return openPrivateCluster(options.cluster.replicas);
  const server = await startPrivateRedis();
  let session: RedisSession;
  try {
    session = await RedisSession.open(privateTarget(server));
  } catch (error) {
    await server.stop();
    throw error;
  }
  const keeper = new PrivateRedisKeeper(server, session);
  return {
    session,
    keeper,
    description: `private redis-server ${session.info.version} on ${server.host}:${server.port} (pid ${server.pid})`,
    close: async () => {
      await keeper.close(); // first: a restart under way must not retarget a closed session
      await session.close();
    },
  };
}

/**
 * The targets a backend offers (redis-targets.ts): a user's Redis alone, or both private ones, the one
 * asked for (`cluster` or not) opened now and the other when a page first picks it (a cluster picked
 * later has no replicas unless the backend was started with --cluster-replicas).
 */
export async function openRedisTargets(redisUrl: string | undefined, options: OpenRedisOptions = {}): Promise<RedisTargets> {
  const started = performance.now();
  const first = await openRedis(redisUrl, options);
  const readyMs = performance.now() - started;
  if (redisUrl) return new RedisTargets('single', first, null, readyMs);
  const replicas = options.cluster?.replicas ?? 0;
  const openers = { single: () => openRedis(undefined), cluster: () => openPrivateCluster(replicas) };
  return new RedisTargets(options.cluster ? 'cluster' : 'single', first, openers, readyMs);
}

async function openPrivateCluster(replicas: number): Promise<OpenedRedis> {
  const cluster = await startPrivateCluster({ replicas });
  let session: RedisSession;
  try {
    session = await RedisSession.open(privateClusterTarget(cluster));
  } catch (error) {
    await cluster.stop();
    throw error;
  }
  const keeper = new PrivateClusterKeeper(cluster, session, replicas);
  const ports = cluster.nodes.map((node) => node.port).join(', ');
  return {
    session,
    clusterKeeper: keeper,
    description: `private Redis Cluster ${session.info.version} (${describeTopology(session.cluster!)}) on ${cluster.host} ports ${ports}, ready in ${(cluster.readyMs / 1000).toFixed(1)} s`,
    close: async () => {
      await keeper.close();
      await session.close();
    },
  };
}

function readCa(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read the CA file given with --redis-ca (${file}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new Error(`The CA file given with --redis-ca (${file}) holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return text;
}
