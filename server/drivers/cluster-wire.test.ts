// What goes on each socket of a cluster run: a pipeline's commands each to its slot's master, a
// transaction or one MSET whole to the master of its first key's slot, with each wire command's slot
// (none for MULTI and EXEC, none for an MSET whose keys span slots) and its bytes as RESP.
import { describe, expect, it } from 'vitest';
import type { ClusterTopology } from '../../trace/format/cluster-format.ts';
import { hashTaggedNamespaceFor, namespaceFor } from '../protocol/command-guard.ts';
import { modePlan } from '../protocol/mode-plan.ts';
import { workloadFor } from '../protocol/run-workload.ts';
import { calculateSlot } from '../redis/keyspace.ts';
import { clusterWire, commonSlot } from './cluster-wire.ts';

const topology: ClusterTopology = {
  source: 'cluster-shards',
  nodes: [
    { id: 'a', address: '127.0.0.1:7601', role: 'master', slots: [[0, 5460]] },
    { id: 'b', address: '127.0.0.1:7602', role: 'master', slots: [[5461, 10922]] },
    { id: 'c', address: '127.0.0.1:7603', role: 'master', slots: [[10923, 16383]] },
  ],
};
const ownerOf = (slot: number) => (slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2);
const ID = 'lx0wire-00000001';

describe('clusterWire', () => {
  it('a pipeline: each command to its slot\'s master, its bytes the RESP of that command', () => {
    const workload = workloadFor('SET', namespaceFor(ID), 4);
    const wire = clusterWire('pipeline', workload, 40, null, topology);
    for (let i = 0; i < 40; i++) {
      const slot = calculateSlot(`pipescope:${ID}:key:${i}`);
      expect(wire.slots[i]).toBe(slot);
      expect(wire.owners[i]).toBe(ownerOf(slot));
      expect(wire.bytesOf(i).toString()).toBe(`*3\r\n$3\r\nSET\r\n$${`pipescope:${ID}:key:${i}`.length}\r\npipescope:${ID}:key:${i}\r\n$4\r\npipe\r\n`);
    }
    expect(wire.shares.flat().sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('keys under the run\'s hash tag: one slot, the tag\'s, one master', () => {
    const workload = workloadFor('SET', hashTaggedNamespaceFor(ID), 4);
    const wire = clusterWire('pipeline', workload, 40, null, topology);
    expect(new Set(wire.slots)).toEqual(new Set([calculateSlot(ID)]));
    expect(wire.shares.filter((share) => share.length > 0)).toHaveLength(1);
  });

  it('a transaction: MULTI, the commands, EXEC, all to the first key\'s master; MULTI and EXEC have no slot', () => {
    const workload = workloadFor('SET', namespaceFor(ID), 4);
    const wire = clusterWire('multi', workload, 12, modePlan('multi', workload, 10), topology);
    const first = ownerOf(calculateSlot(`pipescope:${ID}:key:0`));
    expect([...wire.owners]).toEqual(Array(12).fill(first));
    expect(wire.slots[0]).toBeNull();
    expect(wire.slots[11]).toBeNull();
    expect(wire.slots.slice(1, 11)).toEqual(Array.from({ length: 10 }, (_, i) => calculateSlot(`pipescope:${ID}:key:${i}`)));
    expect(wire.bytesOf(0).toString()).toBe('*1\r\n$5\r\nMULTI\r\n');
    expect(wire.bytesOf(11).toString()).toBe('*1\r\n$4\r\nEXEC\r\n');
    expect(wire.shares[first]).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it('one MSET: its slot only when every key shares it', () => {
    const spread = workloadFor('SET', namespaceFor(ID), 4);
    const across = clusterWire('multikey', spread, 1, modePlan('multikey', spread, 10), topology);
    expect(across.slots).toEqual([null]);
    expect(across.owners[0]).toBe(ownerOf(calculateSlot(`pipescope:${ID}:key:0`)));
    const tagged = workloadFor('SET', hashTaggedNamespaceFor(ID), 4);
    const one = clusterWire('multikey', tagged, 1, modePlan('multikey', tagged, 10), topology);
    expect(one.slots).toEqual([calculateSlot(ID)]);
    expect(one.bytesOf(0).toString()).toMatch(/^\*21\r\n\$4\r\nMSET\r\n/);
  });

  it('commonSlot: the one slot of all keys, or null', () => {
    expect(commonSlot(['{x}1', '{x}2'])).toBe(calculateSlot('x'));
    expect(commonSlot(['a', 'b'])).toBeNull();
    expect(commonSlot([])).toBeNull();
  });
});
