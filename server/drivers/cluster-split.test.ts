// The raw engine's split by node: each command to the master serving its key's slot (as CLUSTER KEYSLOT
// computes it), keys with one {hash tag} all to one master, a keyless command to the first, and a slot
// no master serves refused in words.
import { describe, expect, it } from 'vitest';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import { namespaceFor } from '../protocol/command-guard.ts';
import { workloadFor } from '../protocol/run-workload.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { splitByNode } from './cluster-split.ts';

const topology: ClusterTopology = {
  source: 'cluster-shards',
  nodes: [
    { id: 'a', address: '127.0.0.1:7601', role: 'master', slots: [[0, 5460]] },
    { id: 'b', address: '127.0.0.1:7602', role: 'master', slots: [[5461, 10922]] },
    { id: 'r', address: '127.0.0.1:7604', role: 'replica', masterId: 'a', slots: [] },
    { id: 'c', address: '127.0.0.1:7603', role: 'master', slots: [[10923, 16383]] },
  ],
};
const NS = namespaceFor('lx0split-00000001');

describe('splitByNode', () => {
  it('sends each key to the master of its slot, shares in workload order, replicas never', () => {
    const workload = workloadFor('SET', NS, 8);
    const split = splitByNode(workload, 300, topology);
    expect(split.masters.map((node) => node.id)).toEqual(['a', 'b', 'c']);
    for (let i = 0; i < 300; i++) {
      const slot = calculateSlot(String(workload.argsFor(i)[0]));
      expect(split.slots[i]).toBe(slot);
      expect(split.owners[i]).toBe(slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2);
    }
    expect(split.shares.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    for (const share of split.shares) expect(share).toEqual([...share].sort((x, y) => x - y));
    expect(split.shares.every((share) => share.length > 50)).toBe(true);
    expect(calculateSlot('pipescope:x:{t}:1')).toBe(calculateSlot('t')); // a hash tag: the slot of what is in braces
  });

  it('a keyless command goes to the first master; an unserved slot is refused', () => {
    const ping = splitByNode(workloadFor('PING', NS, 0), 3, topology);
    expect([...ping.owners]).toEqual([0, 0, 0]);
    expect(ping.slots).toEqual([undefined, undefined, undefined]);
    const holed: ClusterTopology = { ...topology, nodes: topology.nodes.filter((node) => node.id !== 'c') };
    expect(() => splitByNode(workloadFor('SET', NS, 8), 300, holed)).toThrow(/is served by no master: the cluster is not ready/);
  });
});
