// The node table under a cluster run's diagram: what each node did, each column naming where its
// figures come from (format/cluster-nodes-text.ts). Nothing for a run against a single Redis.
import { useMemo } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { clusterNodesTable } from '../../format/cluster-nodes-text.ts';
import { clusterRun } from '../../model/cluster-run.ts';
import { nodeColourClass } from '../../paint/cluster-svg-painter.ts';
import './cluster-nodes-view.css';

export function ClusterNodesView({ doc }: { doc: TraceDocument }) {
  const table = useMemo(() => {
    const run = clusterRun(doc);
    return run ? clusterNodesTable(doc, run) : null;
  }, [doc]);
  if (!table) return null;
  return (
    <div className="cluster-nodes" data-testid="cluster-nodes">
      <table>
        <caption>
          Per node <span className="source">client socket: counted from the trace, per socket to each node · INFO: read on that node over the run</span>
        </caption>
        <thead>
          <tr>
            {table.columns.map((c) => (
              <th key={c.key} scope="col">
                {c.label}
                <span className="source">{c.source}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => (
            <tr key={row.id} data-node={row.id} className={row.replica ? 'replica' : undefined}>
              {table.columns.map((c) =>
                c.key === 'node' ? (
                  <th key={c.key} scope="row">
                    <span className={`node-swatch-chip ${nodeColourClass(row.colour)}`} aria-hidden="true" />
                    {row.node}
                  </th>
                ) : (
                  <td key={c.key} data-column={c.key}>
                    {row[c.key]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {table.note && <p className="source cluster-nodes-note">{table.note}</p>}
    </div>
  );
}
