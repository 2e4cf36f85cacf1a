// The cluster view of a trace: nodes in slot order with their sockets, per-node counts taken from the
// records, redirects resolved to the node they pointed at, the slot owners from the topology.
import { describe, expect, it } from 'vitest';
import { parseTrace, serializeTrace } from '../../../trace/format/trace-io.ts';
import { pipelineTrace } from '../test-support/trace-fixtures.ts';
import {
  NODE_A, NODE_B, NODE_C, REPLICA_A, clusterTrace, crossSlotMset, keySlot, ownerOf, redirectedCounter, refusedPipeline, spreadPipeline, threeMasters,
} from '../test-support/cluster-fixtures.ts';
import { clusterRun, slotRuns } from './cluster-run.ts';
import { splitHashTag } from './hash-tag.ts';

describe('clusterRun', () => {
  it('every test shape is a valid trace: it survives export and import', () => {
    for (const doc of [spreadPipeline(12), spreadPipeline(6, 'user42'), redirectedCounter(), crossSlotMset(), refusedPipeline()]) {
      expect(parseTrace(serializeTrace(doc))).toEqual(doc);
    }
  });

  it('is null for a run against a single Redis', () => {
    expect(clusterRun(pipelineTrace(5))).toBeNull();
  });

  it('a pipeline spread over three masters: each node counts its own commands, writes, reads and one round trip', () => {
    const doc = parseTrace(serializeTrace(spreadPipeline(12)));
    const run = clusterRun(doc)!;
    expect(run.masters.map((m) => m.node.id)).toEqual([NODE_A, NODE_B, NODE_C]);
    for (const row of run.masters) {
      const mine = doc.commands.filter((c) => c.node === row.node.id);
      const sockets = doc.cluster!.connections.flatMap((c, k) => (c.node === row.node.id ? [k] : []));
      expect(row.commands).toBe(mine.length);
      expect(row.connections).toEqual(sockets);
      expect(row.writes).toBe(doc.writes.filter((w) => sockets.includes(w.connection!)).length);
      expect(row.reads).toBe(doc.reads.filter((r) => sockets.includes(r.connection!)).length);
      // One pipeline: every node is waited for once, however many writes carried its part.
      expect(row.roundTrips).toBe(mine.length > 0 ? 1 : 0);
      for (const c of mine) expect(ownerOf(c.slot!)).toBe(row.node.id);
    }
    expect(run.masters.reduce((sum, m) => sum + m.commands, 0)).toBe(12);
    // Sockets grouped by their node's lane.
    const lanes = run.connectionOrder.map((k) => run.masters.findIndex((m) => m.node.id === doc.cluster!.connections[k]!.node));
    expect([...lanes].sort()).toEqual(lanes);
  });

  it('the same keys with one {hash tag}: one slot, one node, one socket', () => {
    const doc = spreadPipeline(12, 'user42');
    const slot = keySlot('{user42}');
    expect(new Set(doc.commands.map((c) => c.slot))).toEqual(new Set([slot]));
    const run = clusterRun(doc)!;
    expect(run.masters.filter((m) => m.commands > 0).map((m) => m.node.id)).toEqual([ownerOf(slot)]);
  });

  it('a sequential run waits a round trip per command on each node it went to', () => {
    const doc = redirectedCounter();
    const run = clusterRun(doc)!;
    for (const row of run.masters) expect(row.roundTrips).toBe(row.commands);
    expect(run.masters.reduce((sum, m) => sum + m.errors, 0)).toBe(doc.commands.filter((c) => 'error' in c).length);
  });

  it('resolves each redirect to the node its address names, with when the command went again', () => {
    const doc = redirectedCounter();
    const run = clusterRun(doc)!;
    expect(run.redirects.map((r) => r.redirect.kind)).toEqual(['MOVED', 'ASK']);
    for (const r of run.redirects) {
      const target = doc.cluster!.topology.nodes.find((n) => n.address === r.redirect.to)!;
      expect(r.toNode).toBe(target.id);
      expect(r.followedAtUs).toBe(doc.commands[r.redirect.followedBy!]!.sentUs);
      expect(run.byId.get(r.redirect.from)!.redirects).toBeGreaterThan(0);
    }
  });

  it('a CROSSSLOT names no target: it stays on the node that refused it', () => {
    const run = clusterRun(crossSlotMset())!;
    expect(run.redirects).toHaveLength(1);
    expect(run.redirects[0]!.toNode).toBeNull();
    expect(run.redirects[0]!.followedAtUs).toBeNull();
  });

  it('a replica gets its master\'s colour and is listed under it', () => {
    const doc = clusterTrace({
      id: 'cl-replica', mode: 'sequential', command: 'GET', keyPattern: 'pipescope:cl-replica:{x}', operations: 1,
      commands: [{ connection: 0, slot: keySlot('{x}'), outcome: { reply: null } }],
      writes: [{ atUs: 5, connection: 0, commands: 1 }], reads: [{ atUs: 50, connection: 0, replies: 1 }],
      connections: [{ node: ownerOf(keySlot('{x}')), address: '127.0.0.1:7600' }], topology: threeMasters(true),
    });
    const run = clusterRun(doc)!;
    expect(run.masters[0]!.replicas.map((r) => r.id)).toEqual([REPLICA_A]);
    expect(run.byId.get(REPLICA_A)!.colour).toBe(run.byId.get(NODE_A)!.colour);
  });

  it('slot owners follow the topology\'s ranges, in runs', () => {
    const run = clusterRun(spreadPipeline(3))!;
    expect(slotRuns(run.slotOwner)).toEqual([[0, 5460, 0], [5461, 10922, 1], [10923, 16383, 2]]);
  });
});

describe('splitHashTag', () => {
  it('finds the first {…} with something inside, as Redis does', () => {
    expect(splitHashTag('user:{42}:name')).toEqual({ before: 'user:', tag: '{42}', after: ':name' });
    expect(splitHashTag('a{}b{c}')).toEqual({ before: 'a{}b{c}', tag: '', after: '' });
    expect(splitHashTag('{a}{b}')).toEqual({ before: '', tag: '{a}', after: '{b}' });
    expect(splitHashTag('plain:key')).toEqual({ before: 'plain:key', tag: '', after: '' });
  });

  it('agrees with the slot: keys sharing a tag share a slot', () => {
    expect(keySlot('user:{42}:name')).toBe(keySlot('{42}'));
    expect(keySlot('user:{42}:name')).toBe(keySlot('x{42}y'));
    // Known value from the Redis Cluster specification's examples: "123456789" hashes to 0x31C3.
    expect(keySlot('123456789')).toBe(0x31c3 % 16384);
  });
});
