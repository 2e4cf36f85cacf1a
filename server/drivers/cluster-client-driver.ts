// What a cluster run asks of a client library's cluster client (ioredis `Cluster`, node-redis
// `createCluster`): connect to the cluster we were given, one socket per master, before t0; then run
// the workload its own way, routing every command itself. The run (runs/cluster-client-run.ts) reads
// what went where from the sockets' bytes; a driver reports only how the library's call ended.
import type { Socket } from 'node:net';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { RunMode } from '../../trace/format/trace-format.ts';
import type { Workload } from '../protocol/run-workload.ts';
import type { RedisTarget } from '../redis/redis-target.ts';

/** The modes a library runs on a cluster. */
export const CLUSTER_CLIENT_MODES = ['pipeline', 'sequential', 'auto'] as const satisfies readonly RunMode[];
export type ClusterClientMode = (typeof CLUSTER_CLIENT_MODES)[number];

/** The library's socket to one master. */
export interface NodeSocket {
  /** host:port of the master, as the topology names it. */
  address: string;
  socket: Socket;
}

/**
 * How the library's call ended. done: it returned (error replies, if any, are in the bytes). refused: it
 * refused the batch before sending anything (ioredis's pipeline across nodes). failed: it threw an error
 * reply at its caller after sending (node-redis execAsPipeline at a MOVED).
 */
export type ClusterCall = { kind: 'done' } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string };

export interface ClusterClientDriver {
  /** Who wrote the commands: the trace's recorder.client, e.g. "ioredis 6.0.0". */
  readonly client: string;
  /** One socket per master of the topology, in the order the library opened them. */
  readonly sockets: readonly NodeSocket[];
  /** A PING on the library's connection to master `address` (the RTT before the run). */
  ping(address: string): Promise<void>;
  run(mode: ClusterClientMode, workload: Workload, n: number, cancelled: () => boolean): Promise<ClusterCall>;
  /** Closes every connection once what was written has gone. */
  disconnect(): void;
  /** Stops at once (Cancel): every socket destroyed, whatever waits for replies fails. */
  abort(): void;
}

/** The masters of a topology as host and port, in its order. */
export function masterAddresses(topology: ClusterTopology): { address: string; host: string; port: number }[] {
  return topology.nodes.filter((node) => node.role === 'master').map((node) => {
    const colon = node.address.lastIndexOf(':');
    return { address: node.address, host: node.address.slice(0, colon), port: Number(node.address.slice(colon + 1)) };
  });
}

/** Credentials from the target's URL (never logged), for a cluster client's every node. */
export function targetCredentials(target: RedisTarget): { username?: string; password?: string } {
  const url = new URL(target.url);
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
  };
}

/** ms for a cluster client to read the slots and connect to every master. */
export const CLUSTER_CONNECT_TIMEOUT_MS = 10_000;

/** Rejects after CLUSTER_CONNECT_TIMEOUT_MS with `what`, unless `promise` settles first. */
export async function withinConnectTimeout<T>(promise: Promise<T>, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what())), CLUSTER_CONNECT_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Exactly one socket per master, in `opened` order; throws, naming the address, when a master has none or the library reached another node. */
export function oneSocketPerMaster(topology: ClusterTopology, opened: readonly NodeSocket[], library: string): NodeSocket[] {
  const masters = new Set(masterAddresses(topology).map((master) => master.address));
  for (const { address } of opened) {
    if (!masters.has(address)) throw new Error(`${library} connected to ${address}, which is not a master of the cluster's topology read before the run`);
  }
  for (const address of masters) {
    const count = opened.filter((socket) => socket.address === address).length;
    if (count !== 1) throw new Error(`${library} opened ${count} connections to master ${address}, not one`);
  }
  return [...opened];
}
