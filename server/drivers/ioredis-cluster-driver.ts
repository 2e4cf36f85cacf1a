// ioredis's cluster client (`Cluster`) running a workload the ways its users write it; ioredis routes
// every command itself, from the slots it read (CLUSTER SLOTS) when it connected.
// - pipeline: `cluster.pipeline()`, every command, one exec(). ioredis sends a whole pipeline to one
//   node, and when its keys map to different nodes it refuses it before sending anything (its
//   Pipeline.exec: "All keys in the pipeline should belong to the same slots allocation group").
// - sequential: each command awaited before the next, each sent to its slot's node.
// - auto: `enableAutoPipelining` on for the call, every command issued in one tick: ioredis queues them
//   and, at its next setImmediate, writes one pipeline per node (its autoPipelining.ts groups by node).
//
// Options chosen for measurement: started from the masters of the topology read before the run (the
// cluster we were given), the target's credentials and TLS on every node, no reconnection, no periodic
// slot refresh (ioredis's default: none), the connection name of the run. Every master is connected
// (a PING each, in the topology's order) before t0, so the run's time holds no connect.
import { rootCertificates } from 'node:tls';
import { Cluster, type ChainableCommander, type Redis } from 'ioredis';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { Workload } from '../protocol/run-workload.ts';
import type { RedisTarget } from '../redis/redis-target.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import {
  masterAddresses, oneSocketPerMaster, targetCredentials, withinConnectTimeout,
  type ClusterCall, type ClusterClientDriver, type ClusterClientMode, type NodeSocket,
} from './cluster-client-driver.ts';
import { ioredisClientName } from './ioredis-driver.ts';

/** ioredis's words when a pipeline's keys map to more than one node. */
export const IOREDIS_CROSS_NODE_REFUSAL = 'All keys in the pipeline should belong to the same slots allocation group';

export class IoredisClusterDriver implements ClusterClientDriver {
  readonly client = ioredisClientName();

  private constructor(
    private readonly cluster: Cluster,
    private readonly nodes: ReadonlyMap<string, Redis>,
    readonly sockets: readonly NodeSocket[],
  ) {}

  static async open(target: RedisTarget, topology: ClusterTopology, name: string): Promise<IoredisClusterDriver> {
    const masters = masterAddresses(topology);
    const tls = target.url.startsWith('rediss:') ? { tls: target.tlsCa ? { ca: [...rootCertificates, target.tlsCa] } : {} } : {};
    const cluster = new Cluster(masters.map(({ host, port }) => ({ host, port })), {
      lazyConnect: true,
      clusterRetryStrategy: () => null,
      enableAutoPipelining: false,
      redisOptions: { ...targetCredentials(target), ...tls, connectionName: name, connectTimeout: 5_000, maxRetriesPerRequest: 0 },
    });
    const errors: string[] = [];
    cluster.on('error', (error: Error) => errors.push(error.message)); // surfaced below, or by the failing command
    try {
      const ready = withinConnectTimeout(cluster.connect(), () => `ioredis's cluster client was not ready within 10 s${errors.length ? ` (${errors.at(-1)})` : ''}`);
      await ready;
      const known = new Map(cluster.nodes('master').map((node) => [`${node.options.host}:${node.options.port}`, node]));
      const nodes = new Map<string, Redis>();
      const sockets: NodeSocket[] = [];
      for (const { address } of masters) {
        const node = known.get(address);
        if (!node) throw new Error(`ioredis's cluster client does not list master ${address} (it lists ${[...known.keys()].join(', ') || 'none'})`);
        await withinConnectTimeout(node.ping(), () => `master ${address} did not answer ioredis within 10 s`);
        nodes.set(address, node);
        sockets.push({ address, socket: node.stream as NodeSocket['socket'] });
      }
      return new IoredisClusterDriver(cluster, nodes, oneSocketPerMaster(topology, sockets, 'ioredis'));
    } catch (error) {
      cluster.disconnect();
      throw error;
    }
  }

  async ping(address: string): Promise<void> {
    await this.nodes.get(address)!.ping();
  }

  async run(mode: ClusterClientMode, workload: Workload, n: number, cancelled: () => boolean): Promise<ClusterCall> {
    const issue = commandMethod(workload);
    switch (mode) {
      case 'pipeline': {
        const pipeline = this.cluster.pipeline();
        for (let i = 0; i < n; i++) issue(pipeline, i);
        try {
          await pipeline.exec(); // each command's reply, error replies included, is read off the wire
        } catch (error) {
          if (error instanceof Error && error.message === IOREDIS_CROSS_NODE_REFUSAL) return { kind: 'refused', message: error.message };
          throw error;
        }
        return { kind: 'done' };
      }
      case 'sequential':
        for (let i = 0; i < n; i++) {
          if (cancelled()) throw new RunCancelledError('Run cancelled');
          await (issue(this.cluster, i) as Promise<unknown>).catch(unlessReplyError);
        }
        return { kind: 'done' };
      case 'auto': {
        if (cancelled()) throw new RunCancelledError('Run cancelled');
        this.cluster.options.enableAutoPipelining = true;
        let settled: PromiseSettledResult<unknown>[];
        try {
          const replies = new Array<Promise<unknown>>(n);
          for (let i = 0; i < n; i++) replies[i] = issue(this.cluster, i) as Promise<unknown>;
          settled = await Promise.allSettled(replies);
        } finally {
          this.cluster.options.enableAutoPipelining = false;
        }
        for (const result of settled) if (result.status === 'rejected') unlessReplyError(result.reason);
        return { kind: 'done' };
      }
    }
  }

  disconnect(): void {
    this.cluster.disconnect();
  }

  abort(): void {
    // Destroyed first, each socket drops what it holds; ioredis's disconnect() alone would still write it.
    for (const { socket } of this.sockets) socket.destroy();
    this.cluster.disconnect();
  }
}

/** An error reply is part of the run (read off the wire); anything else (a closed connection) is thrown. */
function unlessReplyError(error: unknown): void {
  if (!(error instanceof Error && error.name === 'ReplyError')) throw error;
}

type CommandMethod = <T extends Cluster | ChainableCommander>(target: T, i: number) => unknown;

/** The i-th command through ioredis's own method for it, on the cluster client or a pipeline. */
function commandMethod(workload: Workload): CommandMethod {
  const key = (i: number) => workload.argsFor(i)[0] as string;
  switch (workload.command) {
    case 'INCR':
      return (target, i) => target.incr(key(i));
    case 'GET':
      return (target, i) => target.get(key(i));
    case 'SET':
      return (target, i) => {
        const [k, value] = workload.argsFor(i) as [string, Buffer];
        return target.set(k, value);
      };
    case 'PING':
    case 'GET-COMPUTE-SET':
      throw new Error(`${workload.command} is not run through a cluster client (cluster-refusal.ts refuses it)`);
  }
}
