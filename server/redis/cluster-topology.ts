// Whether a Redis is a node of a Redis Cluster (INFO cluster: cluster_enabled:1), and if so the
// cluster's topology: every node with its id, address, role and the slot ranges it serves, read with
// CLUSTER SHARDS (Redis 7 and later) or, on an older server (or one whose ACL refuses it), CLUSTER
// SLOTS. Read on the session's control connection; nothing is written.
import type { Redis } from 'ioredis';
import type { ClusterNode, ClusterTopology } from '../../trace/format/cluster-format.ts';
import { parseInfo } from './info-fields.ts';

/** cluster_enabled:1 in INFO cluster. A server whose ACL refuses INFO cluster is taken for a single Redis. */
export async function isClusterNode(control: Redis): Promise<boolean> {
  const info = await control.info('cluster').catch(() => '');
  return parseInfo(info).get('cluster_enabled') === '1';
}

/** The topology; `tls`: the port clients use is the TLS one (rediss://). */
export async function readTopology(control: Redis, { tls = false }: { tls?: boolean } = {}): Promise<ClusterTopology> {
  try {
    const shards = (await control.call('CLUSTER', 'SHARDS')) as unknown[];
    const nodes = fromShards(shards, tls);
    if (nodes.length > 0) return { source: 'cluster-shards', nodes: ordered(nodes) };
  } catch {
    // An older server (unknown subcommand), or an ACL without it: CLUSTER SLOTS says the same for serving nodes.
  }
  const slots = (await control.call('CLUSTER', 'SLOTS')) as unknown[][];
  return { source: 'cluster-slots', nodes: ordered(fromSlots(slots)) };
}

/** Masters first, by their first slot; then replicas, in their masters' order. */
function ordered(nodes: ClusterNode[]): ClusterNode[] {
  const masters = nodes.filter((node) => node.role === 'master').sort((a, b) => (a.slots[0]?.[0] ?? 16384) - (b.slots[0]?.[0] ?? 16384));
  const rank = new Map(masters.map((node, i) => [node.id, i]));
  const replicas = nodes.filter((node) => node.role === 'replica').sort((a, b) => (rank.get(a.masterId ?? '') ?? 0) - (rank.get(b.masterId ?? '') ?? 0));
  return [...masters, ...replicas];
}

/** A RESP map sent as a flat array [key, value, key, value…] (RESP2), as an object. */
function fields(flat: unknown): Map<string, unknown> {
  const map = new Map<string, unknown>();
  if (!Array.isArray(flat)) return map;
  for (let i = 0; i + 1 < flat.length; i += 2) map.set(String(flat[i]), flat[i + 1]);
  return map;
}

function fromShards(shards: unknown[], tls: boolean): ClusterNode[] {
  const nodes: ClusterNode[] = [];
  for (const shard of shards) {
    const entry = fields(shard);
    const flat = (entry.get('slots') as unknown[] | undefined)?.map(Number) ?? [];
    const slots: [number, number][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) slots.push([flat[i]!, flat[i + 1]!]);
    const members = ((entry.get('nodes') as unknown[] | undefined) ?? []).map(fields);
    const master = members.find((node) => node.get('role') === 'master');
    for (const node of members) {
      // A failed or still-loading node serves no one: it is not part of what a run can reach.
      if (node.get('health') !== undefined && node.get('health') !== 'online') continue;
      const host = String(node.get('endpoint') ?? node.get('ip') ?? '');
      const port = Number((tls ? node.get('tls-port') : undefined) ?? node.get('port'));
      const role = node.get('role') === 'master' ? 'master' : 'replica';
      const id = String(node.get('id'));
      nodes.push({ id, address: `${host}:${port}`, role, ...(role === 'replica' && master ? { masterId: String(master.get('id')) } : {}), slots: role === 'master' ? slots : [] });
    }
  }
  return nodes;
}

function fromSlots(ranges: unknown[][]): ClusterNode[] {
  const byId = new Map<string, ClusterNode>();
  for (const range of ranges) {
    const [from, to, master, ...replicas] = range as [number, number, unknown[], ...unknown[][]];
    const masterId = String(master[2]);
    const known = byId.get(masterId);
    if (known) known.slots.push([Number(from), Number(to)]);
    else byId.set(masterId, { id: masterId, address: `${String(master[0])}:${Number(master[1])}`, role: 'master', slots: [[Number(from), Number(to)]] });
    for (const replica of replicas) {
      const id = String(replica[2]);
      if (!byId.has(id)) byId.set(id, { id, address: `${String(replica[0])}:${Number(replica[1])}`, role: 'replica', masterId, slots: [] });
    }
  }
  for (const node of byId.values()) node.slots.sort((a, b) => a[0] - b[0]);
  return [...byId.values()];
}

/** "3 masters, 3 replicas": what a description or an error says of the cluster. */
export function describeTopology(topology: ClusterTopology): string {
  const masters = topology.nodes.filter((node) => node.role === 'master').length;
  const replicas = topology.nodes.length - masters;
  return `${masters} master${masters === 1 ? '' : 's'}${replicas ? `, ${replicas} replica${replicas === 1 ? '' : 's'}` : ''}`;
}
