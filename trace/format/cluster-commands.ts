// Where each command of a cluster run went: its slot, its socket and so its node, in the order the
// commands are numbered (the order the client wrote them). The TraceBuilder knows sockets and replies but
// not slots; the recorder (server/runs/cluster-run.ts) and the live page's copy of a run
// (trace/protocol/live-protocol.ts finishRun) both add these through placeClusterCommands, so the live
// copy and the exported trace are one document.
import type { ClusterRecord } from './cluster-format.ts';
import type { TraceDocument } from './trace-format.ts';

/** Per command, in trace order: its key's slot (null without a key) and the socket it went on. */
export interface CommandPlaces {
  slots: (number | null)[];
  connections: number[];
}

/** The document with each command's slot, node and socket, and the cluster record; throws when the places do not fit. */
export function placeClusterCommands(doc: TraceDocument, cluster: ClusterRecord, places: CommandPlaces): TraceDocument {
  const n = doc.commands.length;
  if (places.slots.length !== n || places.connections.length !== n) {
    throw new Error(`a cluster run's places name ${places.connections.length} commands, its trace has ${n}`);
  }
  const commands = doc.commands.map((command, position) => {
    const connection = places.connections[position]!;
    const socket = cluster.connections[connection];
    if (!socket) throw new Error(`command ${position} went on socket ${connection}, which the cluster record does not list`);
    const slot = places.slots[position];
    // The record's fields in the order the format lists them: index and times, then the cluster's, then the outcome.
    const { index, sentUs, repliedUs, ...rest } = command;
    return { index, sentUs, repliedUs, ...(slot === null || slot === undefined ? {} : { slot }), node: socket.node, connection, ...rest } as TraceDocument['commands'][number];
  });
  return { ...doc, commands, cluster };
}
