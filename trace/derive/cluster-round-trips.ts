// The round trips of a cluster run, per node and on the critical path, as round-trips.ts defines a round
// trip (a wait for replies before more could be sent, counted only where the run could not have sent
// sooner), with the batches a cluster run issues: sequential, every command; a pipeline split by node,
// each socket's share (its first command starts the node's one round trip); a transaction or one
// MSET/MGET, its one node's share.
//
// Per node: the batch starts on that node's socket with nothing in flight on it. On the critical path
// (the client's own waits): the batch starts it issued only after every earlier reply, on any socket —
// every command of a sequential run; each node's share of a pipeline split 'serial' (one node after
// another: the sum of the nodes' round trips); only the first of a pipeline split 'parallel' (every
// share written at once, the nodes' round trips overlapping: the slowest node's, the max) or of one
// transaction. The times decide, as in round-trips.ts: a batch start written while a reply was still in
// flight starts no new one. Pure, unit-tested.
import type { TraceDocument } from '../format/trace-format.ts';

export interface NodeRoundTrips {
  node: string;
  /** The socket (index in cluster.connections). */
  connection: number;
  commands: number;
  roundTrips: number;
  /** From its first command written to its last reply read, µs (0 without commands). */
  spanUs: number;
}

export interface ClusterRoundTrips {
  /** Every socket of the run, in cluster.connections order. */
  perNode: NodeRoundTrips[];
  /** Round trips the run waited through, one after another. */
  criticalPath: number;
  /** How the batches went: one node after another (sum), all nodes at once (max), or one command at a time. */
  shape: 'parallel' | 'serial' | 'sequential' | 'one-node';
}

/** A cluster run's round trips; null for a run without a cluster record or command sockets. */
export function clusterRoundTrips(doc: TraceDocument): ClusterRoundTrips | null {
  const cluster = doc.cluster;
  if (!cluster || doc.commands.some((command) => command.connection === undefined)) return null;
  const sockets = cluster.connections.length;
  const perNode: NodeRoundTrips[] = cluster.connections.map((socket, connection) => ({ node: socket.node, connection, commands: 0, roundTrips: 0, spanUs: 0 }));
  const used = new Set(doc.commands.map((command) => command.connection!));
  const sequential = doc.run.mode === 'sequential';
  const shape: ClusterRoundTrips['shape'] = sequential ? 'sequential' : used.size <= 1 ? 'one-node' : cluster.split === 'serial' ? 'serial' : 'parallel';
  const lastReplyOn = new Array<number>(sockets).fill(-1);
  const firstSentOn = new Array<number>(sockets).fill(-1);
  let lastReply = -1;
  let criticalPath = 0;
  doc.commands.forEach((command, position) => {
    const k = command.connection!;
    const firstOnSocket = perNode[k]!.commands === 0;
    const startsNodeBatch = sequential || firstOnSocket;
    const startsClientBatch = sequential || position === 0 || (shape === 'serial' && firstOnSocket);
    if (startsNodeBatch && command.sentUs >= lastReplyOn[k]!) perNode[k]!.roundTrips++;
    if (startsClientBatch && command.sentUs >= lastReply) criticalPath++;
    perNode[k]!.commands++;
    if (firstOnSocket) firstSentOn[k] = command.sentUs;
    lastReplyOn[k] = Math.max(lastReplyOn[k]!, command.repliedUs);
    lastReply = Math.max(lastReply, command.repliedUs);
  });
  for (const node of perNode) if (node.commands > 0) node.spanUs = lastReplyOn[node.connection]! - firstSentOn[node.connection]!;
  return { perNode, criticalPath, shape };
}
