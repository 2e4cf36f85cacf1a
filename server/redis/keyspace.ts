// Where Pipescope's own housekeeping (the key janitor, lease checks, clean-up) finds and deletes keys:
// on a single Redis, the session's control connection; on a Redis Cluster, every master in turn for
// SCAN (each node scans only its own keys), and a cluster client that sends each key command to the
// node serving its slot. A multi-key command (MGET, UNLINK of many keys) is split into one command per
// slot: a node refuses keys of several slots in one command (CROSSSLOT), even when it serves them all.
import { createRequire } from 'node:module';
import { rootCertificates } from 'node:tls';
import { Cluster, type Redis } from 'ioredis';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { RedisTarget } from './redis-target.ts';

/**
 * A key's hash slot, 0 … 16383: CRC16 of the key, or of its {hash tag}, mod 16384. cluster-key-slot
 * (the function ioredis and node-redis route with) ships no types, so it is required with its own.
 */
export const calculateSlot = createRequire(import.meta.url)('cluster-key-slot') as (key: string | Buffer) => number;

export interface Keyspace {
  /** True on a Redis Cluster. */
  readonly cluster: boolean;
  /** The connections SCAN walks, one after another: the one Redis, or every master of the cluster. */
  scanTargets(): Redis[];
  /** Sends single-key commands (and multi-key ones of one slot) where their key lives. */
  readonly keys: Redis | Cluster;
  /** `keys` in groups one command may carry: all together on a single Redis, one group per slot on a cluster. */
  groups(keys: readonly string[]): string[][];
}

/** The keyspace of a single Redis: everything on the control connection. */
export function singleKeyspace(control: Redis): Keyspace {
  return { cluster: false, scanTargets: () => [control], keys: control, groups: (keys) => (keys.length ? [[...keys]] : []) };
}

/** The keys grouped by hash slot, each group in the keys' order. */
export function groupBySlot(keys: readonly string[]): string[][] {
  const bySlot = new Map<number, string[]>();
  for (const key of keys) {
    const slot = calculateSlot(key);
    const group = bySlot.get(slot);
    if (group) group.push(key);
    else bySlot.set(slot, [key]);
  }
  return [...bySlot.values()];
}

/** One command's outcome: its error, or its reply. */
export type Outcome = readonly [Error | null, unknown];

/**
 * Sends `name` once per group of keys (each group of one slot, as groups() makes them) and returns each
 * outcome in the groups' order. A single Redis: one pipeline, one round trip. A cluster: each command
 * to the node serving its slot, all in flight at once (ioredis writes each node's at once on its socket;
 * a cluster client's pipeline would refuse keys on several nodes).
 */
export async function sendPerGroup(keyspace: Keyspace, name: string, groups: readonly (readonly string[])[], extra: readonly string[] = []): Promise<Outcome[]> {
  if (groups.length === 0) return [];
  if (!keyspace.cluster) {
    const pipeline = (keyspace.keys as Redis).pipeline();
    for (const group of groups) pipeline.call(name, ...group, ...extra);
    return ((await pipeline.exec()) ?? []).map(([error, value]) => [error, value] as const);
  }
  return Promise.all(
    groups.map((group) =>
      keyspace.keys.call(name, ...group, ...extra).then(
        (value): Outcome => [null, value],
        (error: unknown): Outcome => [error instanceof Error ? error : new Error(String(error)), null],
      ),
    ),
  );
}

/**
 * Commands of one key each (or of one slot), run in the given order, the first error thrown: one pipeline
 * on a single Redis; on a cluster one after another, each to its slot's node (their keys may sit on
 * different nodes, and the order must hold across them).
 */
export async function sendInOrder(keyspace: Keyspace, commands: readonly (readonly [string, ...(string | number)[]])[]): Promise<void> {
  if (!keyspace.cluster) {
    const pipeline = (keyspace.keys as Redis).pipeline();
    for (const [name, ...args] of commands) pipeline.call(name, ...args);
    const failed = ((await pipeline.exec()) ?? []).find(([error]) => error);
    if (failed) throw failed[0]!;
    return;
  }
  for (const [name, ...args] of commands) await keyspace.keys.call(name, ...args);
}

/** The housekeeping cluster client must have read the slots within this (ms). */
const CLUSTER_CONNECT_TIMEOUT_MS = 10_000;
/** A command a housekeeping step sends on a cluster waits at most this long (ms), redirections included. */
const CLUSTER_COMMAND_TIMEOUT_MS = 5_000;

/**
 * A cluster client for housekeeping, started from the topology's masters (any one reached will do), with
 * the target's credentials and TLS; resolves once it has read the slots. Never used for measured commands.
 */
export async function openClusterKeyspace(target: RedisTarget, topology: ClusterTopology, name: string): Promise<Keyspace & { close(): void }> {
  const url = new URL(target.url);
  const startNodes = topology.nodes.filter((node) => node.role === 'master').map((node) => {
    const colon = node.address.lastIndexOf(':');
    return { host: node.address.slice(0, colon), port: Number(node.address.slice(colon + 1)) };
  });
  const tls = target.url.startsWith('rediss:') ? { tls: target.tlsCa ? { ca: [...rootCertificates, target.tlsCa] } : {} } : {};
  const client = new Cluster(startNodes.length ? startNodes : [{ host: url.hostname, port: Number(url.port || 6379) }], {
    lazyConnect: true,
    enableOfflineQueue: true,
    clusterRetryStrategy: (attempt) => (attempt > 3 ? null : attempt * 100),
    redisOptions: {
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...tls,
      connectionName: name,
      commandTimeout: CLUSTER_COMMAND_TIMEOUT_MS,
      maxRetriesPerRequest: 1,
      connectTimeout: 5_000,
    },
  });
  const errors: string[] = [];
  client.on('error', (error: Error) => errors.push(error.message)); // surfaced below, or by the failing command
  // ioredis retries a cluster that is not ready (CLUSTER INFO refused, a slot uncovered) without end: bounded here.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the cluster client was not ready within ${CLUSTER_CONNECT_TIMEOUT_MS / 1000} s${errors.length ? ` (${errors.at(-1)})` : ''}`)), CLUSTER_CONNECT_TIMEOUT_MS);
  });
  try {
    await Promise.race([client.connect(), late]);
  } catch (error) {
    client.disconnect();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return {
    cluster: true,
    scanTargets: () => client.nodes('master'),
    keys: client,
    groups: groupBySlot,
    close: () => client.disconnect(),
  };
}
