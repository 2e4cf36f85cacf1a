// The player's summary panel: one line per run of measured figures, each with its source
// (format/run-summary-line.ts), as a plain list under the diagrams.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { runSummaryLine } from '../format/run-summary-line.ts';

export function renderSummary(list: HTMLUListElement, docs: readonly TraceDocument[]): void {
  list.replaceChildren(
    ...docs.map((doc) => {
      const { title, figures } = runSummaryLine(doc);
      const item = document.createElement('li');
      item.dataset['testid'] = 'summary-line';
      item.dataset['mode'] = doc.run.mode;
      const name = document.createElement('span');
      name.className = 'run-title';
      name.textContent = `${title}: `;
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
    }),
  );
}
