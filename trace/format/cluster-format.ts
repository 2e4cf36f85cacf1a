// What a trace says about a Redis Cluster: its topology as the run found it (nodes with their id,
// address, role and slot ranges), the client's sockets and the node each went to, the redirects Redis
// answered (MOVED, ASK, TRYAGAIN, CROSSSLOT) with their error text, a refusal by the client library
// before anything was sent, and per node its INFO counters over the run (read events, errorstats,
// commandstats' rejected_calls). Part of trace-format.ts (document field `cluster`, and the
// per-command `slot`, `node`, `connection` and per-write/read `connection`), added within version 4:
// every field is optional, and a trace without them is a run against a single Redis, as before.
//
// Numbering on a cluster run: commands are numbered in the order the client wrote them, across all its
// sockets (a write completes a contiguous range of them, as on one socket); each socket answers its own
// commands in its own order, so a read's `firstReply` names the first command it completed and
// `replies` counts that socket's commands, in that socket's order, from there.
import { z } from 'zod';

/** Hash slots of Redis Cluster: 0 … 16383. */
export const CLUSTER_SLOT_COUNT = 16384;
/** How a node refuses a command that is not its to run. */
export const REDIRECT_KINDS = ['MOVED', 'ASK', 'TRYAGAIN', 'CROSSSLOT'] as const;
export type RedirectKind = (typeof REDIRECT_KINDS)[number];
/** Where the topology was read: CLUSTER SHARDS (Redis 7), or CLUSTER SLOTS on an older server. */
export const TOPOLOGY_SOURCES = ['cluster-shards', 'cluster-slots'] as const;
export const CLUSTER_ROLES = ['master', 'replica'] as const;

export const SlotSchema = z.number().int().min(0).max(CLUSTER_SLOT_COUNT - 1);
const count = z.number().int().nonnegative();
const micros = z.number().nonnegative().finite();

export const SlotRangeSchema = z.tuple([SlotSchema, SlotSchema]).describe('A range of hash slots, [first, last], both included.');

export const ClusterNodeSchema = z.object({
  id: z.string().min(1).max(64).describe('The node\'s cluster id (40 hex characters in Redis; CLUSTER MYID).'),
  address: z.string().describe('host:port clients reach it at, as the cluster announces it; never a password.'),
  role: z.enum(CLUSTER_ROLES).describe('master: it owns slots and serves them. replica: a copy of `masterId`\'s data.'),
  masterId: z.string().optional().describe('Replicas only: the id of the master it replicates.'),
  slots: z.array(SlotRangeSchema).describe('Masters: the slot ranges it served when the run began, in slot order. Empty for a replica.'),
}).describe('One node of the cluster, as the run found it.');
export type ClusterNode = z.infer<typeof ClusterNodeSchema>;

export const ClusterTopologySchema = z.object({
  source: z.enum(TOPOLOGY_SOURCES).describe('Where it was read: CLUSTER SHARDS (Redis 7 and later), or CLUSTER SLOTS on an older server.'),
  nodes: z.array(ClusterNodeSchema).describe('Every node that serves or replicates slots: masters first, in slot order, then replicas.'),
}).describe('The cluster\'s nodes and who served which slots, read just before the run.');
export type ClusterTopology = z.infer<typeof ClusterTopologySchema>;

export const NodeRttSchema = z.object({
  measuredMinUs: micros.describe('Fastest PING round trip on this socket just before t0 (through its node\'s delay proxy when there is one), µs.'),
  measuredMedianUs: micros.describe('Median of those PING round trips, µs.'),
  samples: count.describe('How many PING round trips were timed.'),
  measuredP10Us: micros.optional().describe('With added delay: the 10th percentile of the same round trips, µs.'),
  measuredP90Us: micros.optional().describe('With added delay: the 90th percentile of the same round trips, µs.'),
  directMedianUs: micros.optional().describe('With added delay: the median of as many PINGs sent to the same node directly, taken alternately with them, µs.'),
  hopCompensationUs: micros.optional().describe('With added delay: what this node\'s proxy takes off each hold (its own hop, calibrated before the run), µs.'),
}).describe('The round trip to one node as measured before t0 on the run\'s socket to it; the delay asked for is the run\'s (`rtt`).');
export type NodeRtt = z.infer<typeof NodeRttSchema>;

export const ClusterConnectionSchema = z.object({
  node: z.string().describe('The id of the node this socket went to (topology.nodes[].id).'),
  address: z.string().describe('host:port the socket connected to (through the delay proxy: the node\'s own address).'),
  rtt: NodeRttSchema.optional().describe(
    'Optional: the round trip to this node measured before t0 on this socket (the run\'s `rtt` is the slowest node\'s). Absent when not measured per node.',
  ),
}).describe('One socket of the client, to one node; its index is what `connection` in commands, writes and reads refers to.');
export type ClusterConnection = z.infer<typeof ClusterConnectionSchema>;

export const RedirectSchema = z.object({
  atUs: micros.describe('When the error reply arrived, µs since t0.'),
  command: count.describe('The command Redis refused (its index in `commands`).'),
  kind: z.enum(REDIRECT_KINDS).describe(
    'MOVED: the slot lives on another node for good. ASK: it is moving; ask the other node once, after ASKING. TRYAGAIN: a ' +
      'multi-key command during a slot\'s migration. CROSSSLOT: the command\'s keys hash to more than one slot (refused at the ' +
      'server even when those slots sit on the same node).',
  ),
  slot: SlotSchema.optional().describe('The slot the error names (MOVED, ASK); absent for TRYAGAIN and CROSSSLOT.'),
  from: z.string().describe('The id of the node that answered with the error.'),
  to: z.string().optional().describe('host:port the error points to (MOVED, ASK).'),
  error: z.string().describe('The error reply, as Redis sent it (e.g. "MOVED 9233 127.0.0.1:7602").'),
  followedBy: z.number().int().nonnegative().optional().describe(
    'The command (index in `commands`) the client sent in its place, when it followed the redirect (after ASKING for ASK); absent when it did not.',
  ),
}).describe('One command a node refused because its slot was not that node\'s to serve, or its keys spanned slots.');
export type Redirect = z.infer<typeof RedirectSchema>;

export const ClientRefusalSchema = z.object({
  library: z.string().describe('The client library that refused, e.g. "ioredis 6.0.0".'),
  message: z.string().describe('What it said, as it said it (e.g. "All keys in the pipeline should belong to the same slots allocation group").'),
  atUs: micros.optional().describe('When its call refused, µs since t0 (the run\'s time: it had nothing on the wire to time).'),
}).describe('The client library refused the batch before sending anything: no command of it reached any node.');
export type ClientRefusal = z.infer<typeof ClientRefusalSchema>;

export const ClientErrorSchema = z.object({
  library: z.string().describe('The client library whose call failed, e.g. "node-redis 6.3.1".'),
  message: z.string().describe('What it reported to its caller, as it said it (node-redis execAsPipeline: the first MOVED reply, e.g. "MOVED 8911 127.0.0.1:7602").'),
  atUs: micros.describe('When the call failed, µs since t0 (replies may still have been arriving).'),
}).describe(
  'The client library\'s call failed after its commands were sent: what it told its caller. Every reply Redis sent is still ' +
    'in `commands`, as it came off the wire; the library handed its caller none of them.',
);
export type ClientError = z.infer<typeof ClientErrorSchema>;

export const NodeCountersSchema = z.object({
  node: z.string().describe('The id of the node (topology.nodes[].id).'),
  reads: count.describe('Redis read events on this node over the run: the delta of INFO stats total_reads_processed.'),
  writes: count.describe('Redis write events on this node over the run: the delta of INFO stats total_writes_processed.'),
  errors: z.record(z.string(), count).describe(
    'INFO errorstats over the run: each error prefix the node replied with (MOVED, ASK, TRYAGAIN, CROSSSLOT, ERR …) → how many ' +
      'times (the delta of errorstat_<prefix>:count). Prefixes that did not change are left out.',
  ),
  rejectedCalls: z.record(z.string(), count).describe(
    'INFO commandstats over the run: each command, named as Redis names it (get, mset …) → calls the node refused before running ' +
      'them (the delta of cmdstat_<command>:rejected_calls; a MOVED, ASK or CROSSSLOT reply counts there, and MONITOR shows none of ' +
      'them). Commands that did not change are left out.',
  ),
  exclusive: z.boolean().describe('true when the node\'s total_commands_processed delta shows no command but the run\'s: no other client was counted in.'),
}).describe('One node\'s INFO counters over the run, read on that node before t0 and after the last reply (Pipescope\'s own INFO calls taken out).');
export type NodeCounters = z.infer<typeof NodeCountersSchema>;

/** How the raw engine wrote a pipeline's shares to the nodes: all at once, or one node after another. */
export const CLUSTER_SPLIT_KINDS = ['parallel', 'serial'] as const;
/** How a cluster run named its keys: spread over slots (one each), or all under one {hash tag} (one slot, one node). */
export const CLUSTER_KEY_KINDS = ['spread', 'hashtag'] as const;

export const ReshardSchema = z.object({
  slot: SlotSchema.describe('The slot moved: the one holding most of the run\'s keys.'),
  from: z.string().describe('The id of the master that served it when the run began.'),
  to: z.string().describe('The id of the master it was moved to.'),
  keys: count.describe('Keys moved (MIGRATE … KEYS), the run\'s and any other in the slot.'),
  startedUs: micros.describe('When the move began (CLUSTER SETSLOT … IMPORTING sent), µs since t0.'),
  keysMovedUs: micros.optional().describe('When the last key had moved (the slot still migrating), µs since t0.'),
  doneUs: micros.optional().describe('When every master had been told the slot\'s new owner (CLUSTER SETSLOT … NODE), µs since t0.'),
  checked: count.describe('Replies checked against the value stored before the run.'),
  wrong: count.describe('Replies that differed from it ("answer ≠ value stored"; each such command carries `valueStored`).'),
  error: z.string().optional().describe('Why the move stopped part-way, when it did (the slot was then set back to its first owner, or left where the keys were).'),
}).describe(
  'A resharding run (Pipescope\'s private cluster only): one slot moved from one master to another, key by key, while the run ran, ' +
    'on Pipescope\'s own connections; the run\'s keys were written with known values before t0 and each reply checked against them.',
);
export type Reshard = z.infer<typeof ReshardSchema>;

export const ClusterSchema = z.object({
  topology: ClusterTopologySchema,
  connections: z.array(ClusterConnectionSchema).describe('The client\'s sockets in the order they were opened, one per node it talked to.'),
  redirects: z.array(RedirectSchema).describe('Every MOVED, ASK, TRYAGAIN and CROSSSLOT error reply of the run, in the order they arrived.'),
  clientRefusal: ClientRefusalSchema.nullable().describe('null unless the client library refused the batch before sending it.'),
  clientError: ClientErrorSchema.optional().describe('Absent unless the client library\'s call failed after sending (see ClientError).'),

  reshard: ReshardSchema.optional().describe('Optional: present for a resharding run.'),
  nodeCounters: z.array(NodeCountersSchema).optional().describe('Per node the run sent commands to, its INFO counters over the run; absent when they were not read (an incomplete run, or INFO not allowed).'),
  split: z.enum(CLUSTER_SPLIT_KINDS).optional().describe(
    'Optional. A pipeline split by node: parallel, every node\'s share written at once, each on its own socket (the critical ' +
      'path is the slowest node); serial, one node\'s share, its replies awaited, then the next node\'s (the sum of the nodes).',
  ),
  keys: z.enum(CLUSTER_KEY_KINDS).optional().describe(
    'Optional. How the run named its keys: spread, one slot per key (over every master); hashtag, every key under one {hash tag} ' +
      '(one slot, one node). Absent: spread (a run recorded before the field).',
  ),
}).describe(
  'Optional (added within v4). Present when the run went to a Redis Cluster: its topology, the client\'s socket to each node, ' +
    'and the redirects. Commands then carry their `slot`, `node` and `connection`, and writes and reads their `connection`. ' +
    'Absent: a run against a single Redis.',
);
export type ClusterRecord = z.infer<typeof ClusterSchema>;

/** The fields a command, a write and a read gain on a cluster run (all optional). */
export const commandClusterFields = {
  slot: SlotSchema.optional().describe('Cluster runs only: the hash slot of the command\'s key (CRC16 of the key, or of its {hash tag}, mod 16384); absent for a command without a key.'),
  node: z.string().optional().describe('Cluster runs only: the id of the node the command was sent to (cluster.topology.nodes[].id).'),
  connection: count.optional().describe('Cluster runs only: the socket that carried it (an index in cluster.connections).'),
  valueStored: z.union([z.string(), z.number(), z.null()]).optional().describe(
    'Runs that check their answers (a resharding run): the value stored under the key before the run, shortened like a reply; ' +
      'present only when the reply differed from it ("answer ≠ value stored").',
  ),
};
export const socketClusterFields = {
  connection: count.optional().describe('Cluster runs only: the socket (an index in cluster.connections); absent on a single Redis, whose run has one.'),
};
