// A resharding run's wrong answer, as the page shows it: its reply arrow marked as an error and labelled
// "answer ≠ value stored", its tooltip saying what it answered and what the key held, and the node table's
// column counting such answers per node (shown only for a resharding run). The trace is made as a
// cluster engine records it (cluster-fixtures.ts); the mark is the one the run adds to a wrong answer.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { clusterRun } from '../model/cluster-run.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { clusterGeometry } from './cluster-geometry.ts';
import { clusterLayout } from './cluster-layout.ts';
import { timeScale } from './time-scale-layout.ts';
import { spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { clusterCommandRows } from '../format/cluster-command-details.ts';
import { CLUSTER_COLUMNS, WRONG_ANSWERS_COLUMN, clusterNodesTable } from '../format/cluster-nodes-text.ts';

/** A 12-SET pipeline whose command `wrong` was answered null, not the OK stored, during a reshard. */
function resharded(wrong: number): TraceDocument {
  const doc = spreadPipeline(12);
  const node = doc.commands[wrong]!.node!;
  doc.cluster!.reshard = { slot: doc.commands[wrong]!.slot!, from: node, to: node === doc.cluster!.connections[0]!.node ? doc.cluster!.connections[1]!.node : doc.cluster!.connections[0]!.node, keys: 1, startedUs: 5, checked: 12, wrong: 1 };
  const { index, sentUs, repliedUs, slot, connection } = doc.commands[wrong]!;
  doc.commands[wrong] = { index, sentUs, repliedUs, slot, node, connection, reply: null, valueStored: 'OK' };
  return doc;
}

describe('a resharding run\'s wrong answer', () => {
  it('is an error reply on the diagram, labelled answer ≠ value stored', () => {
    const doc = resharded(4);
    const run = clusterRun(doc)!;
    const g = clusterGeometry(640, run);
    const columns = traceColumns(doc);
    const layout = clusterLayout(columns, run, timeScale(columns.endUs, g), g);
    const reply = layout.replies.find((a) => a.index === 4)!;
    expect(reply.error).toBe(true);
    expect(reply.label?.before).toBe('✕ answer ≠ value stored: (nil)');
    expect(layout.replies.filter((a) => a.error).map((a) => a.index)).toEqual([4]);
  });

  it('says in its tooltip what it answered and what the key held', () => {
    const doc = resharded(4);
    expect(clusterCommandRows(doc, 4)).toContainEqual({ label: 'answer ≠ value stored', value: 'answered (nil); the key held OK, written before the run' });
    expect(clusterCommandRows(doc, 3).some((row) => row.label === 'answer ≠ value stored')).toBe(false);
  });

  it('is counted per node in the node table, a column shown only for a resharding run', () => {
    const doc = resharded(4);
    const table = clusterNodesTable(doc, clusterRun(doc)!);
    expect(table.columns).toEqual([...CLUSTER_COLUMNS, WRONG_ANSWERS_COLUMN]);
    const counts = Object.fromEntries(table.rows.map((row) => [row.id, row.wrong]));
    expect(counts[doc.commands[4]!.node!]).toBe('1');
    expect(Object.values(counts).filter((count) => count === '0')).toHaveLength(2);
    const plain = spreadPipeline(12);
    const plainTable = clusterNodesTable(plain, clusterRun(plain)!);
    expect(plainTable.columns).toEqual(CLUSTER_COLUMNS);
    expect(plainTable.rows.every((row) => row.wrong === undefined)).toBe(true);
  });
});
