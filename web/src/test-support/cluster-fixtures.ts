// Cluster runs for unit tests. Real ones first: CLUSTER_TRACES names the static site's recordings on a
// private 3-master cluster (public/traces/, read with recorded-traces.ts); a test whose point is what a
// real cluster run looks like uses them. Then runs constructed the one legitimate way, for what no
// recording shows yet: socket events fed through the TraceBuilder, each write and read on its socket,
// then each command's slot, node and socket added as a cluster engine records them. Shapes: a pipeline
// spread over three masters, the same keys with one {hash tag}, a counter whose slot moved during the
// run (MOVED, then ASK), one MSET across slots (CROSSSLOT), and a pipeline the client library refused
// before sending. Slots are the keys' real ones (CRC16 below, as Redis computes them). For unit tests
// only; nothing constructed here is shown to users.
import type { ClusterRecord, Redirect } from '../../../trace/format/cluster-format.ts';
import { TraceBuilder, type Outcome } from '../../../trace/format/trace-builder.ts';
import type { CommandName, RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { header } from './trace-fixtures.ts';

/** Recorded cluster runs (raw engine, 3 masters; scripts/record-static-traces.mjs), by path from the repository's root. */
export const CLUSTER_TRACES = {
  sequential30: 'public/traces/cluster-set-30-sequential.json.gz',
  pipeline30: 'public/traces/cluster-set-30-pipeline.json.gz',
  /** Dense: the diagram draws it in canvas mode. */
  pipeline1000: 'public/traces/cluster-set-1000-pipeline.json.gz',
} as const;

export const NODE_A = 'a1b5f2c7d4e6f8091a2b3c4d5e6f708192a3b4c5';
export const NODE_B = 'b2c6e3d8f5a7091b2c3d4e5f6a7b8c9d0e1f2a3b';
export const NODE_C = 'c3d7f4e9a6b8102c3d4e5f6a7b8c9d0e1f2a3b4c';
export const REPLICA_A = 'd4e8a5f0b7c9213d4e5f6a7b8c9d0e1f2a3b4c5d';
const ADDRESS: Record<string, string> = { [NODE_A]: '127.0.0.1:7601', [NODE_B]: '127.0.0.1:7602', [NODE_C]: '127.0.0.1:7603', [REPLICA_A]: '127.0.0.1:7604' };
export const addressOf = (node: string): string => ADDRESS[node]!;

/** Three masters over the usual ranges; with `replica`, a replica of the first. */
export function threeMasters(replica = false): ClusterRecord['topology'] {
  return {
    source: 'cluster-shards',
    nodes: [
      { id: NODE_A, address: ADDRESS[NODE_A]!, role: 'master', slots: [[0, 5460]] },
      { id: NODE_B, address: ADDRESS[NODE_B]!, role: 'master', slots: [[5461, 10922]] },
      { id: NODE_C, address: ADDRESS[NODE_C]!, role: 'master', slots: [[10923, 16383]] },
      ...(replica ? [{ id: REPLICA_A, address: ADDRESS[REPLICA_A]!, role: 'replica' as const, masterId: NODE_A, slots: [] }] : []),
    ],
  };
}

/** The node serving `slot` in threeMasters(). */
export function ownerOf(slot: number): string {
  return slot <= 5460 ? NODE_A : slot <= 10922 ? NODE_B : NODE_C;
}

/** CRC16/XMODEM of the key (or of its {hash tag}) mod 16384: Redis Cluster's hash slot. */
export function keySlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of new TextEncoder().encode(hashed)) {
    crc ^= byte << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

/** One command as a cluster engine records it: the socket it went on (index in connections), its slot, its outcome. */
export interface PlannedCommand {
  connection: number;
  slot?: number;
  outcome: Outcome;
}

export interface ClusterPlan {
  id: string;
  mode: RunMode;
  command: CommandName;
  keyPattern: string;
  operations: number;
  client?: string;
  commands: PlannedCommand[];
  /** Each a contiguous range of commands, all on `connection`, in command order. */
  writes: { atUs: number; connection: number; commands: number }[];
  /** In reply order (the builder's one FIFO: replies complete in command order). */
  reads: { atUs: number; connection: number; replies: number }[];
  connections: ClusterRecord['connections'];
  topology?: ClusterRecord['topology'];
  redirects?: Redirect[];
  clientError?: ClusterRecord['clientError'];
}

export function clusterTrace(plan: ClusterPlan): TraceDocument {
  const h = header(plan.mode, plan.commands.length, plan.command, plan.id);
  const b = new TraceBuilder({
    ...h,
    run: { ...h.run, keyPattern: plan.keyPattern, operations: plan.operations },
    redis: { version: '7.0.15', embedded: true, address: plan.connections[0]?.address ?? '127.0.0.1:7601' },
    recorder: { ...h.recorder, client: plan.client ?? 'raw' },
  });
  b.addBatch({
    writes: plan.writes.map((w) => ({ atUs: w.atUs, bytes: w.commands * 40, commands: w.commands, connection: w.connection })),
    reads: plan.reads.map((r) => ({ atUs: r.atUs, bytes: r.replies * 5, replies: r.replies, connection: r.connection })),
    outcomes: plan.commands.map((c) => c.outcome),
  });
  const cluster: ClusterRecord = {
    topology: plan.topology ?? threeMasters(), connections: plan.connections, redirects: plan.redirects ?? [], clientRefusal: null,
    ...(plan.clientError ? { clientError: plan.clientError } : {}),
  };
  const doc = b.finish({ reads: plan.reads.length, writes: plan.writes.length, execUs: plan.commands.length * 2, source: 'redis-info', exclusive: true }, { cluster });
  doc.commands = doc.commands.map((record, i) => {
    const c = plan.commands[i]!;
    const { index, sentUs, repliedUs, ...outcome } = record;
    return { index, sentUs, repliedUs, ...(c.slot === undefined ? {} : { slot: c.slot }), node: plan.connections[c.connection]!.node, connection: c.connection, ...outcome };
  });
  return doc;
}

/**
 * SET of n keys `pipescope:<id>:key:<i>` (or, with a tag, `pipescope:<id>:{tag}:<i>`) as a client routing
 * each command to its node writes them: one write per run of consecutive commands for one node, the
 * replies read in the same runs, rttUs after. A socket per node, opened in the order first used.
 */
export function spreadPipeline(n: number, tag: string | null = null, rttUs = 60): TraceDocument {
  const id = tag ? `cl-tag-${n}` : `cl-spread-${n}`;
  const keyPattern = tag ? `pipescope:${id}:{${tag}}:{i}` : `pipescope:${id}:key:{i}`;
  const connections: ClusterRecord['connections'] = [];
  const commands: PlannedCommand[] = [];
  for (let i = 0; i < n; i++) {
    const slot = keySlot(keyPattern.replaceAll('{i}', String(i)));
    const node = ownerOf(slot);
    let connection = connections.findIndex((c) => c.node === node);
    if (connection < 0) connection = connections.push({ node, address: addressOf(node) }) - 1;
    commands.push({ connection, slot, outcome: { reply: 'OK' } });
  }
  const runs: { connection: number; commands: number }[] = [];
  for (const c of commands) {
    const last = runs.at(-1);
    if (last?.connection === c.connection) last.commands++;
    else runs.push({ connection: c.connection, commands: 1 });
  }
  const writes = runs.map((r, k) => ({ ...r, atUs: 10 + 4 * k }));
  const reads = runs.map((r, k) => ({ connection: r.connection, replies: r.commands, atUs: 10 + 4 * (runs.length - 1) + rttUs + 3 * k }));
  return clusterTrace({ id, mode: 'pipeline', command: 'SET', keyPattern, operations: n, commands, writes, reads, connections });
}

/**
 * Sequential INCRs of one counter whose slot moved during the run: the first to the node the topology
 * named; the second answered MOVED and sent again to the node it named; the third answered ASK (the slot
 * migrating on) and sent again, after ASKING, to the importing node.
 */
export function redirectedCounter(): TraceDocument {
  const id = 'cl-moved';
  const keyPattern = `pipescope:${id}:counter`;
  const slot = keySlot(keyPattern);
  const from = ownerOf(slot);
  const [to, then] = [NODE_A, NODE_B, NODE_C].filter((n) => n !== from) as [string, string];
  const connections = [from, to, then].map((node) => ({ node, address: addressOf(node) }));
  const moved = `MOVED ${slot} ${addressOf(to)}`;
  const ask = `ASK ${slot} ${addressOf(then)}`;
  const commands: PlannedCommand[] = [
    { connection: 0, slot, outcome: { reply: 1 } },
    { connection: 0, slot, outcome: { error: moved } },
    { connection: 1, slot, outcome: { reply: 2 } },
    { connection: 1, slot, outcome: { error: ask } },
    { connection: 2, slot, outcome: { reply: 3 } },
  ];
  const writes = commands.map((c, i) => ({ atUs: 10 + 120 * i, connection: c.connection, commands: 1 }));
  const reads = commands.map((c, i) => ({ atUs: 10 + 120 * i + 70, connection: c.connection, replies: 1 }));
  const redirects: Redirect[] = [
    { atUs: reads[1]!.atUs, command: 1, kind: 'MOVED', slot, from, to: addressOf(to), error: moved, followedBy: 2 },
    { atUs: reads[3]!.atUs, command: 3, kind: 'ASK', slot, from: to, to: addressOf(then), error: ask, followedBy: 4 },
  ];
  // Every send is a wire command of its own (run.n = operations: the model counts a re-sent command as one more INCR).
  return clusterTrace({ id, mode: 'sequential', command: 'INCR', keyPattern, operations: commands.length, commands, writes, reads, connections, redirects });
}

/** One MSET of keys in different slots: refused at the server with CROSSSLOT. */
export function crossSlotMset(): TraceDocument {
  const id = 'cl-crossslot';
  const keyPattern = `pipescope:${id}:key:{i}`;
  const node = ownerOf(keySlot(keyPattern.replace('{i}', '0')));
  const error = 'CROSSSLOT Keys in request don\'t hash to the same slot';
  return clusterTrace({
    id, mode: 'multikey', command: 'SET', keyPattern, operations: 4,
    commands: [{ connection: 0, outcome: { error } }],
    writes: [{ atUs: 10, connection: 0, commands: 1 }],
    reads: [{ atUs: 75, connection: 0, replies: 1 }],
    connections: [{ node, address: addressOf(node) }],
    redirects: [{ atUs: 75, command: 0, kind: 'CROSSSLOT', from: node, error }],
  });
}

/**
 * node-redis's execAsPipeline of keys on several nodes: every command to the first key's node, which
 * answers MOVED for the others; node-redis threw the first MOVED at its caller.
 */
export function movedPipeline(n = 6): TraceDocument {
  const id = 'cl-moved';
  const keyPattern = `pipescope:${id}:key:{i}`;
  const first = ownerOf(keySlot(keyPattern.replace('{i}', '0')));
  const commands: PlannedCommand[] = [];
  const redirects: Redirect[] = [];
  for (let i = 0; i < n; i++) {
    const slot = keySlot(keyPattern.replace('{i}', String(i)));
    const owner = ownerOf(slot);
    const error = `MOVED ${slot} ${addressOf(owner)}`;
    commands.push({ connection: 0, slot, outcome: owner === first ? { reply: 'OK' } : { error } });
    if (owner !== first) redirects.push({ atUs: 90, command: i, kind: 'MOVED', slot, from: first, to: addressOf(owner), error });
  }
  return clusterTrace({
    id, mode: 'pipeline', command: 'SET', keyPattern, operations: n, client: 'node-redis 6.3.1', commands,
    writes: [{ atUs: 10, connection: 0, commands: n }], reads: [{ atUs: 90, connection: 0, replies: n }],
    connections: [{ node: first, address: addressOf(first) }], redirects,
    clientError: { library: 'node-redis 6.3.1', message: redirects[0]?.error ?? '', atUs: 95 },
  });
}

/** ioredis's Cluster pipeline refusing keys of several nodes: nothing written, nothing read. */
export function refusedPipeline(): TraceDocument {
  const h = header('pipeline', 4, 'SET', 'cl-refused');
  const b = new TraceBuilder({ ...h, recorder: { ...h.recorder, client: 'ioredis 6.0.0' } });
  const cluster: ClusterRecord = {
    topology: threeMasters(), connections: [], redirects: [],
    clientRefusal: { library: 'ioredis 6.0.0', message: 'All keys in the pipeline should belong to the same slots allocation group' },
  };
  return b.partial({ reason: 'failed', message: 'All keys in the pipeline should belong to the same slots allocation group', omitted: ['redis-info'] }, { cluster });
}
