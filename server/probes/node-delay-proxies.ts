// Added delay on a Redis Cluster: one delay proxy (delay-proxy.ts) per node the run talks to, each on its
// own loopback port in front of that node, so every node's connection gains the same added RTT and
// jitter, and per-node round trips show on loopback as they would across a network.
//
// A cluster client learns node addresses from the cluster itself (CLUSTER SLOTS / SHARDS, MOVED, ASK):
// those are the nodes' announced host:port, which would go around the proxies. `nodeAddressMap()` gives
// the translation a client library applies to every address it learns:
//   - ioredis:    new Cluster([proxies.seed()], { natMap: proxies.nodeAddressMap(), … })
//   - node-redis: createCluster({ rootNodes: [{ url: … }], nodeAddressMap: proxies.nodeAddressMap(), … })
// Both accept this one shape (announced "host:port" → { host, port } of its proxy). A client library may
// open a connection to any node it learns of (replicas too, for reads or after a failover): start its
// proxies with forTopology(), which puts one in front of every node, so that none is reached around its
// proxy. The raw engine opens each master's socket at `addressFor(node)` itself (runs/cluster-run.ts).
//
// What a trace records stays the node's own address (cluster.connections[].address); the proxies' ports
// are Pipescope's plumbing. Every proxy listens on loopback only, holds a bounded number of bytes each way
// (MAX_HELD_BYTES), and is closed with close() once the run's sockets are done.
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import { DelayProxy, type DelaySettings } from './delay-proxy.ts';

/** An address as client libraries take it in a node address map. */
export interface HostPort {
  host: string;
  port: number;
}

export class NodeDelayProxies {
  private constructor(private readonly byAddress: ReadonlyMap<string, DelayProxy>) {}

  /**
   * One proxy per address (each a node's announced host:port), started at once; if one fails to start,
   * those already started are closed and the error is thrown.
   */
  static async start(addresses: readonly string[], settings: DelaySettings): Promise<NodeDelayProxies> {
    const unique = [...new Set(addresses)];
    const started = await Promise.allSettled(unique.map((address) => DelayProxy.start(parseHostPort(address), settings)));
    const proxies = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed) {
      await Promise.all(proxies.map((proxy) => proxy.close()));
      throw failed.reason;
    }
    return new NodeDelayProxies(new Map(unique.map((address, k) => [address, proxies[k]!])));
  }

  /** One proxy in front of every node of `topology`, masters and replicas: what a cluster client library needs. */
  static forTopology(topology: ClusterTopology, settings: DelaySettings): Promise<NodeDelayProxies> {
    return NodeDelayProxies.start(topology.nodes.map((node) => node.address), settings);
  }

  /** The proxy in front of the node announced at `address`; throws for a node without one. */
  proxyFor(address: string): DelayProxy {
    const proxy = this.byAddress.get(address);
    if (!proxy) throw new Error(`no delay proxy for node ${address}: the topology changed since the proxies were started`);
    return proxy;
  }

  /** Where to connect to reach the node announced at `address` through its proxy. */
  addressFor(address: string): HostPort {
    const proxy = this.proxyFor(address);
    return { host: proxy.host, port: proxy.port };
  }

  /**
   * Announced "host:port" of each node → the loopback host and port of its proxy: ioredis's `natMap`
   * and node-redis's `nodeAddressMap` both take this object as it is. A fresh object each call.
   */
  nodeAddressMap(): Record<string, HostPort> {
    return Object.fromEntries([...this.byAddress].map(([address, proxy]) => [address, { host: proxy.host, port: proxy.port }]));
  }

  /** Every proxy's open sockets, both sides counted: 0 once every connection through them is closed. */
  get openSockets(): number {
    let open = 0;
    for (const proxy of this.byAddress.values()) open += proxy.openSockets;
    return open;
  }

  /** Closes every proxy and whatever still goes through them. */
  async close(): Promise<void> {
    await Promise.all([...this.byAddress.values()].map((proxy) => proxy.close()));
  }
}

/** "host:port" (the host may be an IPv6 address: the port is after the last colon). */
export function parseHostPort(address: string): HostPort {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  if (colon <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`not a host:port address: ${address}`);
  return { host: address.slice(0, colon).replace(/^\[(.*)\]$/, '$1'), port };
}
