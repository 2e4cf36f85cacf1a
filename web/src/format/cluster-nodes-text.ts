// The node table under a cluster run's diagram, as text: one row per node the run met (every master,
// and a replica only when the run sent it something), each figure beside the column that names its
// source — the client socket (commands, socket writes and reads, round trips, errors and redirects as
// replied), or Redis's INFO read on that node (read events, errorstats, commandstats' rejected_calls),
// which a run without those counters shows as not read rather than as zero. Pure.
import type { NodeCounters } from '../../../trace/format/cluster-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { ClusterNodeRow, ClusterRun } from '../model/cluster-run.ts';
import { formatCount, plural } from './number-format.ts';

export interface ClusterColumn {
  key: keyof ClusterNodeCells;
  label: string;
  source: string;
}

export interface ClusterNodeCells {
  node: string;
  commands: string;
  writes: string;
  reads: string;
  roundTrips: string;
  refused: string;
  redisReads: string;
  errorstats: string;
  rejectedCalls: string;
  /** A resharding run only: answers that differed from the value stored. */
  wrong?: string;
}

export interface ClusterNodesTable {
  columns: ClusterColumn[];
  rows: (ClusterNodeCells & { id: string; colour: number; replica: boolean })[];
  /** Why INFO's columns are empty, when they are; null when the trace has them. */
  note: string | null;
}

export const CLUSTER_COLUMNS: ClusterColumn[] = [
  { key: 'node', label: 'Node', source: 'topology' },
  { key: 'commands', label: 'Commands', source: 'client socket' },
  { key: 'writes', label: 'Writes', source: 'client socket' },
  { key: 'reads', label: 'Reads', source: 'client socket' },
  { key: 'roundTrips', label: 'Round trips', source: 'client socket' },
  { key: 'refused', label: 'Redirects', source: 'its error replies' },
  { key: 'redisReads', label: 'Redis reads', source: 'INFO stats' },
  { key: 'errorstats', label: 'Errors', source: 'INFO errorstats' },
  { key: 'rejectedCalls', label: 'Rejected calls', source: 'INFO commandstats' },
];

/** A resharding run's column: its answers checked against the values stored before it. */
export const WRONG_ANSWERS_COLUMN: ClusterColumn = { key: 'wrong', label: 'Answers ≠ value stored', source: 'each reply checked' };

const NOT_READ = '—';

export function clusterNodesTable(doc: TraceDocument, run: ClusterRun): ClusterNodesTable {
  const counters = new Map((doc.cluster?.nodeCounters ?? []).map((c) => [c.node, c]));
  const shown = run.nodes.filter((r) => r.node.role === 'master' || r.commands > 0 || counters.has(r.node.id));
  const rows = shown.map((r) => ({ id: r.node.id, colour: r.colour, replica: r.node.role === 'replica', ...cells(r, counters.get(r.node.id), run) }));
  const note = counters.size > 0 ? null : doc.incomplete
    ? 'Redis INFO on each node needs the whole run: not read for a run cut short.'
    : 'This trace has no per-node INFO counters: read events, errorstats and rejected calls were not read.';
  return { columns: doc.cluster?.reshard ? [...CLUSTER_COLUMNS, WRONG_ANSWERS_COLUMN] : CLUSTER_COLUMNS, rows, note };
}

function cells(r: ClusterNodeRow, counters: NodeCounters | undefined, run: ClusterRun): ClusterNodeCells {
  return {
    node: r.node.role === 'master' ? r.node.address : `${r.node.address} (replica of ${run.byId.get(r.node.masterId ?? '')?.node.address ?? '?'})`,
    commands: formatCount(r.commands),
    writes: formatCount(r.writes),
    reads: formatCount(r.reads),
    roundTrips: formatCount(r.roundTrips),
    refused: formatCount(r.redirects),
    redisReads: counters ? formatCount(counters.reads) + (counters.exclusive ? '' : ' (other clients counted in)') : NOT_READ,
    errorstats: counters ? tally(counters.errors) : NOT_READ,
    rejectedCalls: counters ? tally(counters.rejectedCalls) : NOT_READ,
    ...(run.resharded ? { wrong: formatCount(r.wrong) } : {}),
  };
}

/** "MOVED 1 · CROSSSLOT 2", by count then name; "none" when empty. */
function tally(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([name, n]) => `${name} ${formatCount(n)}`).join(' · ') : 'none';
}

/** The player's line per node: "127.0.0.1:7601: 4 commands, 1 round trip" (client socket), the refusals it answered, INFO's read events where read. */
export function clusterNodeFigures(doc: TraceDocument, run: ClusterRun): { id: string; text: string; source: string }[] {
  const counters = new Map((doc.cluster?.nodeCounters ?? []).map((c) => [c.node, c]));
  return run.nodes
    .filter((r) => r.commands > 0 || r.redirects > 0)
    .flatMap((r) => {
      const redirects = r.redirects > 0 ? `, ${plural(r.redirects, 'redirect')} answered` : '';
      const info = counters.get(r.node.id);
      return [
        { id: `node-${r.node.id}`, text: `${r.node.address}: ${plural(r.commands, 'command')}, ${plural(r.roundTrips, 'round trip')}${redirects}`, source: 'client socket' },
        ...(info ? [{ id: `node-reads-${r.node.id}`, text: `${plural(info.reads, 'Redis read')} there`, source: 'Redis INFO stats, on that node' }] : []),
      ];
    });
}
