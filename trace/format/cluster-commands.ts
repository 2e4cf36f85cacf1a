// A cluster run's per-command fields (slot, node, socket, and for a resharding run the value stored when
// an answer differed), kept apart from the socket events: the run knows them once its last reply is in,
// and both its own document and the page's copy built from the wire (run-end) add them the same way here.
import type { ReplyValue, TraceDocument } from './trace-format.ts';
import type { ClusterRecord } from './cluster-format.ts';

export interface ClusterCommandFields {
  /** Each command's slot, by position; null for a command without a key. */
  slots: (number | null)[];
  /** Each command's socket (index in cluster.connections), by position; its node is that socket's. */
  connections: number[];
  /** Commands whose answer differed from the value stored before the run: [position, value stored]. */
  valueStored: [number, ReplyValue][];
}

/** The document's commands with their cluster fields, in the record's key order (exports compare byte for byte). */
export function withClusterFields(commands: TraceDocument['commands'], cluster: ClusterRecord, fields: ClusterCommandFields): TraceDocument['commands'] {
  if (fields.slots.length !== commands.length || fields.connections.length !== commands.length) {
    throw new Error(`cluster fields for ${fields.slots.length} commands, but the run has ${commands.length}`);
  }
  const stored = new Map(fields.valueStored);
  return commands.map((command, position) => {
    const { index, sentUs, repliedUs, ...outcome } = command as { index: number; sentUs: number; repliedUs: number } & ({ reply: ReplyValue } | { error: string });
    const slot = fields.slots[position];
    const connection = fields.connections[position]!;
    const node = cluster.connections[connection]?.node;
    if (node === undefined) throw new Error(`command ${position} names socket ${connection}, which the run did not open`);
    return {
      index, sentUs, repliedUs, ...(slot === null || slot === undefined ? {} : { slot }), node, connection, ...outcome,
      ...(stored.has(position) ? { valueStored: stored.get(position)! } : {}),
    } as TraceDocument['commands'][number];
  });
}
