// Where each command of a cluster run went: its key's hash slot and the socket that carried it (so the
// node, the socket's: cluster.connections[k].node), in the trace's command order. The raw engine knows
// these once its sockets are written; the trace builder does not (it sees bytes), so the run adds them
// to the finished document's commands, and the live protocol carries them (run-end) as two parallel
// arrays of small numbers, for the page to add them to its own copy the same way.
import { z } from 'zod';
import type { ClusterRecord } from './cluster-format.ts';
import { SlotSchema } from './cluster-format.ts';
import type { CommandRecord } from './trace-format.ts';

export interface CommandPlaces {
  /** Per command in trace order: its key's slot, or null for a command without a key. */
  slots: (number | null)[];
  /** Per command in trace order: its socket (an index in cluster.connections). */
  connections: number[];
}

export const CommandPlacesSchema = z.object({
  slots: z.array(SlotSchema.nullable()),
  connections: z.array(z.number().int().nonnegative()),
}).refine((p) => p.slots.length === p.connections.length, 'slots and connections must be as long as each other');

/**
 * The commands with their slot, node and socket, in the field order the trace writes them (index, sentUs,
 * repliedUs, slot, node, connection, then the outcome). Throws when the places do not fit the commands
 * or name a socket the cluster record does not have.
 */
export function placeCommands(commands: readonly CommandRecord[], cluster: ClusterRecord, places: CommandPlaces): CommandRecord[] {
  if (places.connections.length !== commands.length) {
    throw new Error(`a cluster run's places name ${places.connections.length} commands, but the run has ${commands.length}`);
  }
  return commands.map((command, position) => {
    const k = places.connections[position]!;
    const socket = cluster.connections[k];
    if (!socket) throw new Error(`command ${position} went on socket ${k}, which the run's cluster record does not list`);
    const slot = places.slots[position];
    const { index, sentUs, repliedUs, ...outcome } = command as CommandRecord & { index: number; sentUs: number; repliedUs: number };
    delete (outcome as Partial<CommandRecord>).slot;
    delete (outcome as Partial<CommandRecord>).node;
    delete (outcome as Partial<CommandRecord>).connection;
    return { index, sentUs, repliedUs, ...(slot === null || slot === undefined ? {} : { slot }), node: socket.node, connection: k, ...outcome } as CommandRecord;
  });
}
