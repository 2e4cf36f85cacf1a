// The words under a cluster run's diagram, from its measured round trips: one on the critical path for a
// pipeline whose shares went at once (the slowest node's), the sum for one node after another or one
// command at a time, one node for keys under one hash tag or a transaction, and a node's refusals in its
// own words; a single Redis's run keeps its own line. Also the count itself (trace/derive/cluster-round-trips.ts).
import { describe, expect, it } from 'vitest';
import { clusterRoundTrips } from '../../../trace/derive/cluster-round-trips.ts';
import type { ClusterRecord } from '../../../trace/format/cluster-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { NODE_A, NODE_B, NODE_C, addressOf, clusterTrace, crossSlotMset, spreadPipeline, type PlannedCommand } from '../test-support/cluster-fixtures.ts';
import { clusterRunExplanation } from './cluster-run-explanation.ts';

const connections: ClusterRecord['connections'] = [NODE_A, NODE_B, NODE_C].map((node) => ({ node, address: addressOf(node) }));

/** Two commands per node, each node's pair written and answered before the next node's: a pipeline split serial. */
function serialPipeline(): TraceDocument {
  const commands: PlannedCommand[] = [0, 0, 1, 1, 2, 2].map((connection) => ({ connection, slot: [100, 200, 6000, 6100, 12000, 12100][connection * 2]!, outcome: { reply: 'OK' } }));
  const writes = [0, 1, 2].map((k) => ({ atUs: 10 + 100 * k, connection: k, commands: 2 }));
  const reads = [0, 1, 2].map((k) => ({ atUs: 80 + 100 * k + 30 * k, connection: k, replies: 2 }));
  const doc = clusterTrace({ id: 'cl-serial', mode: 'pipeline', command: 'SET', keyPattern: 'pipescope:cl-serial:key:{i}', operations: 6, commands, writes, reads, connections });
  return { ...doc, cluster: { ...doc.cluster!, split: 'serial' } };
}

/** Four SETs one at a time, on nodes A, B, A, C. */
function sequentialRun(): TraceDocument {
  const sockets = [0, 1, 0, 2];
  const commands: PlannedCommand[] = sockets.map((connection) => ({ connection, slot: [10, 6000, 10, 12000][connection === 0 ? 0 : connection]!, outcome: { reply: 'OK' } }));
  const writes = sockets.map((connection, i) => ({ atUs: 10 + 100 * i, connection, commands: 1 }));
  const reads = sockets.map((connection, i) => ({ atUs: 70 + 100 * i, connection, replies: 1 }));
  return clusterTrace({ id: 'cl-seq', mode: 'sequential', command: 'SET', keyPattern: 'pipescope:cl-seq:key:{i}', operations: 4, commands, writes, reads, connections });
}

describe('clusterRoundTrips', () => {
  it('parallel: one on each node, one on the critical path (the max); serial: the sum; sequential: one per command', () => {
    const parallel = clusterRoundTrips(spreadPipeline(30))!;
    expect(parallel.shape).toBe('parallel');
    expect(parallel.criticalPath).toBe(1);
    expect(parallel.perNode.map((node) => node.roundTrips)).toEqual([1, 1, 1]);
    const serial = clusterRoundTrips(serialPipeline())!;
    expect(serial).toMatchObject({ shape: 'serial', criticalPath: 3 });
    expect(serial.perNode.map((node) => [node.roundTrips, node.spanUs])).toEqual([[1, 70], [1, 100], [1, 130]]);
    const sequential = clusterRoundTrips(sequentialRun())!;
    expect(sequential).toMatchObject({ shape: 'sequential', criticalPath: 4 });
    expect(sequential.perNode.map((node) => node.roundTrips)).toEqual([2, 1, 1]);
  });

  it('a run without a cluster record has none', () => {
    const doc = spreadPipeline(3);
    const { cluster: _, ...single } = doc;
    expect(clusterRoundTrips(single as TraceDocument)).toBeNull();
  });
});

describe('clusterRunExplanation', () => {
  it('a pipeline split by node at once: one round trip on the critical path, the slowest node named, each node\'s count and time', () => {
    const doc = spreadPipeline(30);
    const text = clusterRunExplanation(doc)!;
    expect(text).toMatch(/^30 commands in \d+ writes on 3 sockets, replies in \d+ reads: 1 round trip on the critical path — every node's share was written at once/);
    expect(text).toContain('the run waited for the slowest node, 127.0.0.1:760');
    expect(text).toMatch(/the max over the nodes: 127\.0\.0\.1:760\d 1 in \d+ µs, 127\.0\.0\.1:760\d 1 in/);
    expect(text).not.toContain('Refused');
  });

  it('one node after another: the sum, spelled out', () => {
    expect(clusterRunExplanation(serialPipeline())).toBe(
      '6 commands in 3 writes on 3 sockets, replies in 3 reads: 3 round trips on the critical path — one node\'s share after another, each written ' +
        'only after the previous node had answered: the sum over the nodes (1 + 1 + 1: 127.0.0.1:7601 1 in 70 µs, 127.0.0.1:7602 1 in 100 µs, 127.0.0.1:7603 1 in 130 µs).',
    );
  });

  it('sequential: one round trip per command, the sum over the nodes', () => {
    expect(clusterRunExplanation(sequentialRun())).toMatch(/^4 commands in 4 writes on 3 sockets, replies in 4 reads: 4 round trips on the critical path — one command at a time, each sent to its key's node only after the previous reply: the sum over the nodes \(127\.0\.0\.1:7601 2 in 260 µs, 127\.0\.0\.1:7602 1 in 60 µs, 127\.0\.0\.1:7603 1 in 60 µs\)\.$/);
  });

  it('keys under one hash tag: every command on one node, because they share one slot', () => {
    const text = clusterRunExplanation(spreadPipeline(12, 'tag'))!;
    expect(text).toMatch(/1 round trip on the critical path — every command went to one node, 127\.0\.0\.1:760\d, because every key shares one hash tag, so one slot\.$/);
  });

  it('one MSET across slots: one node, and its refusal in Redis\'s words', () => {
    expect(clusterRunExplanation(crossSlotMset())).toMatch(
      /1 round trip on the critical path — every command went to one node, 127\.0\.0\.1:760\d, as one multi-key command goes whole, to its first key's node: a cluster cannot split it, and its keys span slots\. Refused by the node: 1 × “CROSSSLOT Keys in request don't hash to the same slot” — in a cluster, a batch's keys must share a slot, or the client must split it by node\.$/,
    );
  });
});
