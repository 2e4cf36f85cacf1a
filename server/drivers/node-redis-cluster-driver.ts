// node-redis's cluster client (`createCluster`) running a workload the ways its users write it;
// node-redis routes every command itself, from the slots it read (CLUSTER SLOTS) when it connected.
// - pipeline: its explicit pipeline, `multi()…execAsPipeline()`: every command to the node of the
//   first key (no MULTI/EXEC on the wire). A command whose slot another node serves is answered
//   `MOVED`; node-redis does not follow a redirect inside a pipeline, and awaiting its commands
//   together it throws the first error reply at its caller, so the replies that succeeded are lost
//   to it. The run still reads every reply off the wire.
// - auto: every command issued in one tick through the client's methods, awaited together: node-redis
//   writes each node's commands together at its next setImmediate (one batch per node's socket) — its
//   own automatic pipelining, as the single-Redis engine's pipeline mode uses it.
// - sequential: each command awaited before the next, each sent to its slot's node.
//
// Options as the single-Redis engine's (node-redis-driver.ts), on every node through `defaults`: the
// target's credentials and TLS, no reconnection, no offline queue, no per-command timeout, no
// maintenance notifications, the run's connection name; masters only (no replica connections), each
// connected at start (minimizeConnections off), started from the masters of the topology read before
// the run. node-redis keeps its sockets private: they are found by a mark in their options
// (marked-sockets.ts); the one it opens to read the slots is closed before the run and left out.
import { rootCertificates } from 'node:tls';
import { createCluster, ErrorReply } from 'redis';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { Workload } from '../protocol/run-workload.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import {
  masterAddresses, oneSocketPerMaster, targetCredentials, withinConnectTimeout,
  type ClusterCall, type ClusterClientDriver, type ClusterClientMode, type NodeSocket,
} from './cluster-client-driver.ts';
import { SOCKET_MARK, captureMarkedSockets } from './marked-sockets.ts';
import { nodeRedisClientName } from './node-redis-driver.ts';

function newCluster(target: RedisTarget, topology: ClusterTopology, name: string) {
  const tls = target.url.startsWith('rediss:');
  return createCluster({
    rootNodes: masterAddresses(topology).map(({ host, port }) => ({ socket: { host, port } })),
    defaults: {
      ...targetCredentials(target),
      name,
      socket: {
        ...(tls ? { tls: true as const, ...(target.tlsCa ? { ca: [...rootCertificates, target.tlsCa] } : {}) } : { tls: false as const }),
        connectTimeout: 5_000,
        reconnectStrategy: false,
        // Passed through to createConnection by node-redis, ignored by Node: how its sockets are found.
        ...({ [SOCKET_MARK]: name } as object),
      },
      disableOfflineQueue: true,
      maintNotifications: 'disabled',
    },
    commandOptions: { timeout: 0 },
    minimizeConnections: false,
    useReplicas: false,
  });
}

type NodeRedisCluster = ReturnType<typeof newCluster>;

export class NodeRedisClusterDriver implements ClusterClientDriver {
  readonly client = nodeRedisClientName();

  private constructor(
    private readonly cluster: NodeRedisCluster,
    readonly sockets: readonly NodeSocket[],
  ) {}

  /** `name`: the run's connection name, also the mark its sockets are found by (one run at a time per name). */
  static async open(target: RedisTarget, topology: ClusterTopology, name: string): Promise<NodeRedisClusterDriver> {
    const cluster = newCluster(target, topology, name);
    const errors: string[] = [];
    // Without a listener an 'error' event would end the process; kept to explain a failed connect.
    cluster.on('error', (error: unknown) => errors.push(error instanceof Error ? error.message : String(error)));
    const stop = captureMarkedSockets(name);
    let opened: NodeSocket[] = [];
    try {
      await withinConnectTimeout(cluster.connect(), () => `node-redis's cluster client was not ready within 10 s${errors.length ? ` (${errors.at(-1)})` : ''}`);
    } catch (error) {
      stop();
      cluster.destroy();
      throw error;
    }
    // The socket it read the slots on is closed by now: only its connections to the nodes stay.
    opened = stop().filter(({ socket }) => !socket.destroyed);
    try {
      return new NodeRedisClusterDriver(cluster, oneSocketPerMaster(topology, opened, 'node-redis'));
    } catch (error) {
      cluster.destroy();
      throw error;
    }
  }

  async ping(address: string): Promise<void> {
    const master = this.cluster.masters.find((node) => node.address === address);
    if (!master) throw new Error(`node-redis's cluster client does not list master ${address}`);
    await (await this.cluster.nodeClient(master)).ping();
  }

  async run(mode: ClusterClientMode, workload: Workload, n: number, cancelled: () => boolean): Promise<ClusterCall> {
    switch (mode) {
      case 'pipeline': {
        const multi = this.cluster.multi();
        const add = multiMethod(multi, workload);
        for (let i = 0; i < n; i++) add(i);
        try {
          await multi.execAsPipeline();
        } catch (error) {
          if (error instanceof ErrorReply) return { kind: 'failed', message: error.message };
          throw error;
        }
        return { kind: 'done' };
      }
      case 'sequential': {
        const issue = commandMethod(this.cluster, workload);
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          await issue(i).catch(unlessReplyError);
        }
        return { kind: 'done' };
      }
      case 'auto': {
        if (cancelled()) throw new RunCancelledError('Run cancelled');
        const issue = commandMethod(this.cluster, workload);
        const replies = new Array<Promise<unknown>>(n);
        for (let i = 0; i < n; i++) replies[i] = issue(i);
        for (const result of await Promise.allSettled(replies)) if (result.status === 'rejected') unlessReplyError(result.reason);
        return { kind: 'done' };
      }
    }
  }

  disconnect(): void {
    this.cluster.close().catch(() => {});
  }

  abort(): void {
    for (const { socket } of this.sockets) socket.destroy();
    this.cluster.destroy();
  }
}

/** An error reply is part of the run (read off the wire); anything else (a closed connection) is thrown. */
function unlessReplyError(error: unknown): void {
  if (!(error instanceof ErrorReply)) throw error;
}

/** The i-th command through node-redis's own method for it, routed by the cluster client. */
function commandMethod(cluster: NodeRedisCluster, workload: Workload): (i: number) => Promise<unknown> {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'INCR':
      return (i) => cluster.incr(key(i));
    case 'GET':
      return (i) => cluster.get(key(i));
    case 'SET':
      return (i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        return cluster.set(k, value);
      };
    case 'PING':
    case 'GET-COMPUTE-SET':
      throw new Error(`${workload.command} is not run through a cluster client (cluster-refusal.ts refuses it)`);
  }
}

/** Adds the i-th command to a node-redis multi(), through its own method. */
function multiMethod(multi: ReturnType<NodeRedisCluster['multi']>, workload: Workload): (i: number) => void {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'INCR':
      return (i) => void multi.incr(key(i));
    case 'GET':
      return (i) => void multi.get(key(i));
    case 'SET':
      return (i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        void multi.set(k, value);
      };
    case 'PING':
    case 'GET-COMPUTE-SET':
      throw new Error(`${workload.command} is not run through a cluster client (cluster-refusal.ts refuses it)`);
  }
}
