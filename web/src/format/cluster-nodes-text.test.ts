// The node table's text: a row per master (a replica only when the run met it), the client socket's
// figures counted from the trace, INFO's per node when the trace has them and "not read" otherwise.
import { describe, expect, it } from 'vitest';
import { clusterRun } from '../model/cluster-run.ts';
import { NODE_A, NODE_B, redirectedCounter, spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { clusterNodeFigures, clusterNodesTable } from './cluster-nodes-text.ts';

describe('clusterNodesTable', () => {
  it('a row per master with its client-socket figures; INFO not read says so', () => {
    const doc = spreadPipeline(12);
    const run = clusterRun(doc)!;
    const table = clusterNodesTable(doc, run);
    expect(table.rows.map((r) => r.id)).toEqual(run.masters.map((m) => m.node.id));
    for (const [k, row] of table.rows.entries()) {
      const m = run.masters[k]!;
      expect(row.node).toBe(m.node.address);
      expect([row.commands, row.writes, row.reads, row.roundTrips]).toEqual([m.commands, m.writes, m.reads, m.roundTrips].map(String));
      expect([row.redisReads, row.errorstats, row.rejectedCalls]).toEqual(['—', '—', '—']);
    }
    expect(table.note).toMatch(/no per-node INFO counters/);
    expect(table.columns.every((c) => c.source.length > 0)).toBe(true);
  });

  it('INFO\'s counters per node, where the trace has them', () => {
    const doc = redirectedCounter();
    const moved = doc.cluster!.redirects[0]!;
    doc.cluster = {
      ...doc.cluster!,
      nodeCounters: [
        { node: moved.from, reads: 2, writes: 2, errors: { MOVED: 1 }, rejectedCalls: { incr: 1 }, exclusive: true },
        { node: moved.from === NODE_A ? NODE_B : NODE_A, reads: 3, writes: 3, errors: {}, rejectedCalls: {}, exclusive: false },
      ],
    };
    const table = clusterNodesTable(doc, clusterRun(doc)!);
    const from = table.rows.find((r) => r.id === moved.from)!;
    expect([from.redisReads, from.errorstats, from.rejectedCalls, from.refused]).toEqual(['2', 'MOVED 1', 'incr 1', '1']);
    const other = table.rows.find((r) => r.id === (moved.from === NODE_A ? NODE_B : NODE_A))!;
    expect([other.redisReads, other.errorstats, other.rejectedCalls]).toEqual(['3 (other clients counted in)', 'none', 'none']);
    expect(table.note).toBeNull();
  });

  it('the player\'s line per node: only nodes the run met, each figure with its source', () => {
    const doc = redirectedCounter();
    const run = clusterRun(doc)!;
    const figures = clusterNodeFigures(doc, run);
    const met = run.nodes.filter((r) => r.commands > 0 || r.redirects > 0);
    expect(figures.map((f) => f.id)).toEqual(met.map((r) => `node-${r.node.id}`));
    const first = met[0]!;
    expect(figures[0]).toEqual({
      id: `node-${first.node.id}`,
      text: `${first.node.address}: ${first.commands} commands, ${first.roundTrips} round trips, ${first.redirects} redirect answered`,
      source: 'client socket',
    });
  });
});
