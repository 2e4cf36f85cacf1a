// The results toolbar's Export menu, one function per format (trace files, JSON, are saved by the results
// view itself): the diagrams as one standalone SVG or a PNG at 2× (paint/diagram-export-svg.ts,
// paint/svg-raster.ts), each run's per-command table as CSV (format/run-table-text.ts, the Table tab's
// own CSV), and each run as a Mermaid sequenceDiagram or a plain-text flow (trace/export/mermaid-export.ts,
// trace/export/flow-export.ts: the same text as `npm run record -- export`). File names follow traceFileName.
import { textFlow } from '../../../trace/export/flow-export.ts';
import { mermaidSequence } from '../../../trace/export/mermaid-export.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { runTableCsv } from '../format/run-table-text.ts';
import { runTableRows } from '../model/run-table-rows.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { diagramControllerOf } from '../paint/diagram-controller.ts';
import { exportSize, standaloneDiagramSvg, type ExportPanel } from '../paint/diagram-export-svg.ts';
import { svgToPng } from '../paint/svg-raster.ts';
import { downloadBlob, downloadCsv, downloadText, traceFileName } from './trace-files.ts';

export type RunExportFormat = 'trace' | 'svg' | 'png' | 'csv' | 'mermaid' | 'flow';

/** The menu's items, in order: what each saves, for its label and its title. */
export const RUN_EXPORTS: readonly { format: RunExportFormat; label: string; title: string }[] = [
  { format: 'trace', label: 'Trace (JSON)', title: 'The runs on screen in one file (a compare: every run and repeat, in order): open it again with Open trace… or a ?trace= link' },
  { format: 'svg', label: 'SVG', title: 'The diagrams as one standalone SVG, colours and fonts as on screen' },
  { format: 'png', label: 'PNG 2×', title: 'The diagrams as a PNG at twice their size on screen, for slides' },
  { format: 'csv', label: 'CSV (per-command table)', title: 'Each run’s per-command table (the Table tab) as CSV' },
  { format: 'mermaid', label: 'Mermaid', title: 'Each run as a Mermaid sequenceDiagram of its socket writes and reads' },
  { format: 'flow', label: 'Text flow', title: 'Each run as a plain-text flow in fixed-width columns, like Wireshark’s Flow Graph' },
];

/** PNG export: device pixels per CSS px. */
export const PNG_SCALE = 2;

/** A file name for these runs: the run's trace file name with `ext`, or for several "pipescope-compare-<modes>-<command>-<n>-<first id>.<ext>". */
export function exportFileName(docs: readonly TraceDocument[], ext: string): string {
  if (docs.length === 1) return traceFileName(docs[0]!).replace(/\.json$/, `.${ext}`);
  const modes = docs.map((d) => (d.run.mode === 'chunked' && d.run.chunk !== undefined ? `chunked-${d.run.chunk}` : d.run.mode)).join('-');
  const { command, n, id } = docs[0]!.run;
  return `pipescope-compare-${modes}-${command.toLowerCase()}-${n}-${id}.${ext}`;
}

/** The diagrams painted in `section` for `docs` (its run panels, in order), as the SVG export takes them. */
export function panelsIn(section: ParentNode, docs: readonly TraceDocument[], pixelRatio: number): ExportPanel[] {
  const hosts = Array.from(section.querySelectorAll('[data-testid=run-panel] .diagram-host'));
  const panels: ExportPanel[] = [];
  docs.forEach((doc, i) => {
    const snapshot = hosts[i] ? diagramControllerOf(hosts[i]!)?.snapshot(pixelRatio) : null;
    if (snapshot) panels.push({ doc, snapshot });
  });
  if (panels.length === 0) throw new Error('No diagram is drawn yet to export.');
  return panels;
}

/**
 * Saves the runs shown in `format`; throws Error with a message for the user when it cannot. Trace (JSON)
 * is not here: the menu saves every repeat on screen in one file (state/trace-files.ts downloadTraces).
 */
export async function exportRuns(format: Exclude<RunExportFormat, 'trace'>, docs: readonly TraceDocument[], section: ParentNode): Promise<void> {
  switch (format) {
    case 'svg': {
      const panels = panelsIn(section, docs, PNG_SCALE); // canvas-mode bands at 2×, sharp when the SVG is scaled up
      downloadText(standaloneDiagramSvg(panels), exportFileName(docs, 'svg'), 'image/svg+xml');
      return;
    }
    case 'png': {
      const panels = panelsIn(section, docs, PNG_SCALE);
      const { width, height } = exportSize(panels);
      downloadBlob(await svgToPng(standaloneDiagramSvg(panels), width, height, PNG_SCALE), exportFileName(docs, 'png'));
      return;
    }
    case 'csv':
      for (const doc of docs) {
        const columns = traceColumns(doc);
        downloadCsv(runTableCsv(columns, runTableRows(columns, 0, columns.n)), exportFileName([doc], 'csv'));
      }
      return;
    case 'mermaid':
      docs.forEach((doc) => downloadText(mermaidSequence(doc), exportFileName([doc], 'mmd'), 'text/plain;charset=utf-8'));
      return;
    case 'flow':
      docs.forEach((doc) => downloadText(textFlow(doc), exportFileName([doc], 'flow.txt'), 'text/plain;charset=utf-8'));
      return;
  }
}
