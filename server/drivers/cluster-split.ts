// The raw engine's split of a run by node on a Redis Cluster: each command's slot (CRC16 of its key, or of
// its {hash tag}, mod 16384: cluster-key-slot, as ioredis and node-redis route) and the master serving
// that slot in the topology read before the run. A command without a key (PING) goes to the first master.
// Pure: the run (runs/cluster-run.ts) opens one connection per master and writes each its share.
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import type { Workload } from '../protocol/run-workload.ts';

export interface ClusterSplit {
  /** The masters, in topology order: connection k goes to masters[k]. */
  masters: ClusterTopology['nodes'];
  /** Each command's slot (undefined without a key) and master (index in `masters`), by workload index. */
  slots: (number | undefined)[];
  owners: Int32Array;
  /** Each master's commands (workload indices), in workload order. */
  shares: number[][];
}

/** Which master serves each slot (index in `masters`); -1 for a slot none serves (a cluster not ready). */
export function slotOwners(masters: ClusterTopology['nodes']): Int32Array {
  const owners = new Int32Array(16384).fill(-1);
  masters.forEach((node, k) => {
    for (const [first, last] of node.slots) owners.fill(k, first, last + 1);
  });
  return owners;
}

export function splitByNode(workload: Workload, n: number, topology: ClusterTopology): ClusterSplit {
  const masters = topology.nodes.filter((node) => node.role === 'master');
  if (masters.length === 0) throw new Error('the cluster\'s topology names no master');
  const bySlot = slotOwners(masters);
  const slots: (number | undefined)[] = new Array(n);
  const owners = new Int32Array(n);
  const shares: number[][] = masters.map(() => []);
  for (let i = 0; i < n; i++) {
    const key = workload.argsFor(i)[0];
    const slot = key === undefined ? undefined : calculateSlot(key);
    const owner = slot === undefined ? 0 : bySlot[slot]!;
    if (owner < 0) throw new Error(`slot ${slot} (of command ${i}'s key) is served by no master: the cluster is not ready`);
    slots[i] = slot;
    owners[i] = owner;
    shares[owner]!.push(i);
  }
  return { masters, slots, owners, shares };
}
