// What the raw engine puts on each socket of a cluster run, per mode, before t0 (pure). 'pipeline' and
// 'sequential' split the workload by node (cluster-split.ts): each command to the master serving its
// key's slot. 'multi' and 'multikey' are one transaction (MULTI, the n commands, EXEC) or one MSET/MGET:
// a unit that cannot be split, so it goes whole to one node, the master of its first key's slot, as a
// client routes a transaction. That node answers what Redis answers: with the keys under one hash tag
// (one slot) it runs it; with keys spread over slots it refuses the MSET (CROSSSLOT, even when it serves
// every one of those slots), refuses the queued commands of other nodes' slots (MOVED) and then EXEC
// (EXECABORT), or refuses EXEC itself when all are its own but span slots (CROSSSLOT).
//
// Wire positions follow trace/format/wire-layout.ts: position i of the run is wire command i here.
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import type { RunMode } from '../../trace/format/trace-format.ts';
import type { WireCommand, WirePlan } from '../protocol/mode-plan.ts';
import { encode, encodeBatch } from '../protocol/resp-encoder.ts';
import type { Workload } from '../protocol/run-workload.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { slotOwners, splitByNode } from './cluster-split.ts';

export interface ClusterWire {
  /** The masters, in topology order: socket k goes to masters[k]. */
  masters: ClusterTopology['nodes'];
  /** Each wire command's slot (null: no key, or keys of several slots) and socket, by wire position. */
  slots: (number | null)[];
  owners: Int32Array;
  /** Each socket's wire commands (positions, ascending). */
  shares: number[][];
  /** Wire command i's bytes (RESP; PING inline). */
  bytesOf(i: number): Buffer;
}

/** The slot all of `keys` hash to, or null when there is none or they span several. */
export function commonSlot(keys: readonly (string | Buffer)[]): number | null {
  let slot: number | null = null;
  for (const key of keys) {
    const own = calculateSlot(key);
    if (slot !== null && own !== slot) return null;
    slot = own;
  }
  return slot;
}

/** The keys a wire command names: every other argument of MSET, every argument of MGET, the first otherwise; none for MULTI, EXEC, PING. */
function keysOf([name, ...args]: WireCommand): (string | Buffer)[] {
  if (name === 'MULTI' || name === 'EXEC' || name === 'PING' || args.length === 0) return [];
  if (name === 'MSET') return args.filter((_, i) => i % 2 === 0);
  if (name === 'MGET') return args;
  return [args[0]!];
}

/** The wire of a cluster run: `n` operations of `workload` in `mode` (`plan`: the mode's wire plan, for multi and multikey). */
export function clusterWire(mode: RunMode, workload: Workload, n: number, plan: WirePlan | null, topology: ClusterTopology): ClusterWire {
  if (plan && (mode === 'multi' || mode === 'multikey')) return oneNodeWire(plan, topology);
  if (plan) throw new Error(`${mode} runs are not sent to a cluster`);
  const split = splitByNode(workload, n, topology);
  const { bytes, offsets } = encodeBatch(workload, n);
  return {
    masters: split.masters,
    slots: split.slots.map((slot) => slot ?? null),
    owners: split.owners,
    shares: split.shares,
    bytesOf: (i) => bytes.subarray(offsets[i]!, offsets[i + 1]!),
  };
}

/** A transaction or one multi-key command, whole, to the master of its first key's slot. */
function oneNodeWire(plan: WirePlan, topology: ClusterTopology): ClusterWire {
  const masters = topology.nodes.filter((node) => node.role === 'master');
  if (masters.length === 0) throw new Error('the cluster\'s topology names no master');
  const commands = [...plan.batches()].flat();
  const slots = commands.map((command) => commonSlot(keysOf(command)));
  const firstKey = commands.map(keysOf).find((keys) => keys.length > 0)?.[0];
  const owner = firstKey === undefined ? 0 : slotOwners(masters)[calculateSlot(firstKey)]!;
  if (owner < 0) throw new Error(`the slot of the run's first key is served by no master: the cluster is not ready`);
  const encoded = commands.map((command) => encode([...command]));
  return {
    masters,
    slots,
    owners: new Int32Array(commands.length).fill(owner),
    shares: masters.map((_, k) => (k === owner ? commands.map((_, i) => i) : [])),
    bytesOf: (i) => encoded[i]!,
  };
}
