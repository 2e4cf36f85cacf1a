// A cluster run as the diagram and the node table read it: the masters in slot order with their
// replicas, the client's sockets grouped by the node they went to, who owned each hash slot when the
// run began, each redirect resolved to the node it pointed at, and what each node did (commands, writes,
// reads, round trips), all counted from the trace's own records. Built once per document. Pure.
//
// A redirect names where it points as host:port (`to`); the node with that address in the topology is
// its target, or else the node the client re-sent the command to (`followedBy`'s node); null when
// neither is known (the error was not followed and names an address outside the topology).
import type { ClusterNode, Redirect } from '../../../trace/format/cluster-format.ts';
import { CLUSTER_SLOT_COUNT } from '../../../trace/format/cluster-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { startsBatch } from '../../../trace/derive/round-trips.ts';

export interface ClusterNodeRow {
  node: ClusterNode;
  /** Masters: 0, 1, 2 … in slot order (the lane's colour); a replica has its master's. */
  colour: number;
  /** Replicas of this master (empty for a replica). */
  replicas: ClusterNode[];
  /** The client's sockets to this node: indexes in cluster.connections. */
  connections: number[];
  /** Commands sent to it (commands[].node), socket writes and reads on its sockets (client socket). */
  commands: number;
  writes: number;
  reads: number;
  /** Round trips the run waited for on this node (trace/derive/round-trips.ts, counted over its commands alone). */
  roundTrips: number;
  /** Error replies this node sent (commands[].error). */
  errors: number;
  /** Redirects (MOVED, ASK, TRYAGAIN, CROSSSLOT) this node answered. */
  redirects: number;
  /** A resharding run: answers from this node that differed from the value stored before the run (commands[].valueStored). */
  wrong: number;
}

export interface ResolvedRedirect {
  redirect: Redirect;
  /** Index in cluster.redirects. */
  index: number;
  /** The node the error pointed at (see the file's comment), or null. */
  toNode: string | null;
  /** When the command sent in its place left the client (µs since t0), when there was one. */
  followedAtUs: number | null;
}

export interface ClusterRun {
  /** Masters first (slot order), then replicas, as the topology lists them. */
  nodes: ClusterNodeRow[];
  byId: ReadonlyMap<string, ClusterNodeRow>;
  /** Masters only, in slot order: the diagram's main lanes. */
  masters: ClusterNodeRow[];
  /** cluster.connections in the diagram's order: grouped by their node's lane, then by opening order. */
  connectionOrder: number[];
  redirects: ResolvedRedirect[];
  /** Slot → index in `masters` of its owner when the run began; -1 for a slot no master served. */
  slotOwner: Int8Array;
  /** A resharding run (cluster.reshard): a slot moved during it, each answer checked against the value stored. */
  resharded: boolean;
}

const cache = new WeakMap<TraceDocument, ClusterRun | null>();

/** The cluster view of a document, or null for a run against a single Redis. */
export function clusterRun(doc: TraceDocument): ClusterRun | null {
  if (cache.has(doc)) return cache.get(doc)!;
  const built = doc.cluster ? build(doc) : null;
  cache.set(doc, built);
  return built;
}

function build(doc: TraceDocument): ClusterRun {
  const cluster = doc.cluster!;
  const topology = cluster.topology.nodes;
  const masterNodes = topology.filter((n) => n.role === 'master');
  const colourOf = new Map(masterNodes.map((n, i) => [n.id, i]));
  const row = (node: ClusterNode): ClusterNodeRow => ({
    node,
    colour: colourOf.get(node.role === 'master' ? node.id : node.masterId ?? '') ?? -1,
    replicas: node.role === 'master' ? topology.filter((r) => r.role === 'replica' && r.masterId === node.id) : [],
    connections: [], commands: 0, writes: 0, reads: 0, roundTrips: 0, errors: 0, redirects: 0, wrong: 0,
  });
  const nodes = [...masterNodes, ...topology.filter((n) => n.role !== 'master')].map(row);
  const byId = new Map(nodes.map((r) => [r.node.id, r]));
  cluster.connections.forEach((c, k) => byId.get(c.node)?.connections.push(k));
  const nodeOfConnection = (k: number | undefined) => (k === undefined ? undefined : byId.get(cluster.connections[k]?.node ?? ''));
  for (const w of doc.writes) { const r = nodeOfConnection(w.connection); if (r) r.writes++; }
  for (const rd of doc.reads) { const r = nodeOfConnection(rd.connection); if (r) r.reads++; }
  countCommands(doc, byId);
  for (const r of cluster.redirects) { const from = byId.get(r.from); if (from) from.redirects++; }
  const byAddress = new Map(topology.map((n) => [n.address, n.id]));
  const redirects = cluster.redirects.map((redirect, index): ResolvedRedirect => {
    const followed = redirect.followedBy === undefined ? undefined : doc.commands[redirect.followedBy];
    const toNode = (redirect.to !== undefined ? byAddress.get(redirect.to) : undefined) ?? followed?.node ?? null;
    return { redirect, index, toNode, followedAtUs: followed ? followed.sentUs : null };
  });
  const masters = nodes.filter((r) => r.node.role === 'master');
  const connectionOrder = nodes.flatMap((r) => r.connections);
  return { nodes, byId, masters, connectionOrder, redirects, slotOwner: slotOwners(masterNodes), resharded: cluster.reshard !== undefined };
}

/**
 * Commands, errors and round trips per node. A round trip on a node begins with its first command, and
 * again whenever a command that starts a batch (startsBatch) is sent after every earlier reply from that
 * node had arrived: a pipeline split across three nodes is one round trip on each.
 */
function countCommands(doc: TraceDocument, byId: Map<string, ClusterNodeRow>): void {
  const inFlightUntil = new Map<string, number>();
  doc.commands.forEach((c, i) => {
    const r = c.node === undefined ? undefined : byId.get(c.node);
    if (!r) return;
    r.commands++;
    if ('error' in c) r.errors++;
    if (c.valueStored !== undefined) r.wrong++;
    const until = inFlightUntil.get(r.node.id);
    if (until === undefined || (c.sentUs >= until && startsBatch(doc, i))) r.roundTrips++;
    inFlightUntil.set(r.node.id, Math.max(until ?? 0, c.repliedUs));
  });
}

function slotOwners(masters: ClusterNode[]): Int8Array {
  const owner = new Int8Array(CLUSTER_SLOT_COUNT).fill(-1);
  masters.forEach((m, i) => {
    for (const [first, last] of m.slots) owner.fill(i, first, last + 1);
  });
  return owner;
}

/** Runs of consecutive slots with one owner: [first, last, owner index in masters or -1], in slot order. */
export function slotRuns(owner: Int8Array): [number, number, number][] {
  const runs: [number, number, number][] = [];
  for (let s = 0; s < owner.length; s++) {
    const last = runs.at(-1);
    if (last && last[2] === owner[s]) last[1] = s;
    else runs.push([s, s, owner[s]!]);
  }
  return runs;
}
