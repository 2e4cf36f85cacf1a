// The player's summary panel: one line per run of measured figures, each with its source
// (format/run-summary-line.ts), as a plain list under the diagrams; a cluster run adds a line of what
// each node did (format/cluster-nodes-text.ts).
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { clusterNodeFigures } from '../format/cluster-nodes-text.ts';
import { runSummaryLine, type SummaryFigure } from '../format/run-summary-line.ts';
import { clusterRun } from '../model/cluster-run.ts';

export function renderSummary(list: HTMLUListElement, docs: readonly TraceDocument[]): void {
  list.replaceChildren(
    ...docs.flatMap((doc) => {
      const { title, figures } = runSummaryLine(doc);
      const item = summaryItem(`${title}: `, figures);
      item.dataset['testid'] = 'summary-line';
      item.dataset['mode'] = doc.run.mode;
      const cluster = clusterRun(doc);
      if (!cluster) return [item];
      const nodes = summaryItem('per node: ', clusterNodeFigures(doc, cluster));
      nodes.dataset['testid'] = 'summary-nodes';
      return [item, nodes];
    }),
  );
}

function summaryItem(heading: string, figures: readonly SummaryFigure[]): HTMLLIElement {
  const item = document.createElement('li');
  const name = document.createElement('span');
  name.className = 'run-title';
  name.textContent = heading;
  item.append(name);
  figures.forEach((f, i) => {
    if (i > 0) item.append(' · ');
    const figure = document.createElement('span');
    figure.className = 'figure';
    figure.dataset['figure'] = f.id;
    const source = document.createElement('span');
    source.className = 'source';
    source.textContent = ` (${f.source})`;
    figure.append(f.text, source);
    item.append(figure);
  });
  return item;
}
