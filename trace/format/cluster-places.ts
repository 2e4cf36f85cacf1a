// Where each command of a cluster run went: its socket (an index in cluster.connections) and its key's
// hash slot, in the trace's command order. The engine records them beside the trace builder's events and
// adds them to the finished document; the live endpoint sends them with a run's end (two parallel arrays,
// not one object per command) so the page's copy of the run gets them too. One function puts them on the
// commands for both, so the live copy and the saved trace agree. Pure.
import type { ClusterRecord } from './cluster-format.ts';
import { TraceError } from './trace-builder.ts';
import type { ReplyValue, TraceDocument } from './trace-format.ts';

export interface CommandPlaces {
  /** Per command, in trace order: the socket that carried it (index in cluster.connections). */
  connections: number[];
  /** Per command, in trace order: its key's hash slot, or null for a command without a key. */
  slots: (number | null)[];
  /** A resharding run: the commands whose answer differed from the value stored before the run, as [position, value stored]. */
  valueStored?: [number, ReplyValue][];
}

/** `doc`'s commands with their slot, node (the node of their socket) and socket; throws on places that do not fit the document. */
export function placeClusterCommands(doc: TraceDocument, cluster: ClusterRecord, places: CommandPlaces): TraceDocument['commands'] {
  if (places.connections.length !== doc.commands.length || places.slots.length !== doc.commands.length) {
    throw new TraceError(`A cluster run's places name ${places.connections.length} commands, its trace has ${doc.commands.length}.`);
  }
  const stored = new Map(places.valueStored ?? []);
  return doc.commands.map((command, position) => {
    const connection = places.connections[position]!;
    const node = cluster.connections[connection]?.node;
    if (node === undefined) throw new TraceError(`Command ${position} went on socket ${connection}, which the run never opened.`);
    const slot = places.slots[position];
    const { index, sentUs, repliedUs, ...outcome } = command;
    return {
      index, sentUs, repliedUs, ...(slot === null || slot === undefined ? {} : { slot }), node, connection, ...outcome,
      ...(stored.has(position) ? { valueStored: stored.get(position)! } : {}),
    } as TraceDocument['commands'][number];
  });
}
