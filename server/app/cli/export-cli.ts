// `npm run record -- export <file.json> --format mermaid|flow|csv [--out FILE]`: a recorded trace or
// sweep as text for docs that cannot embed the player, without a browser or a Redis. The file is read
// through parseDocument (trace/format/sweep-io.ts), so it is held to the same checks and migrations as a file
// opened in the app; the text comes from the same exporters as the app's Export menu (trace/*-export.ts,
// trace/export/sweep-csv.ts). Bad flags or files: one clear message, exit 2 or 1; nothing but the text on stdout.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { textFlow } from '../../../trace/export/flow-export.ts';
import { mermaidSequence } from '../../../trace/export/mermaid-export.ts';
import { sweepBenchmarkCsv } from '../../../trace/export/sweep-csv.ts';
import type { PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { readDocumentFile } from './trace-files-node.ts';
import { CliError } from './cli-options.ts';

export const EXPORT_FORMATS = ['mermaid', 'flow', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_USAGE = `Usage: npm run record -- export FILE --format mermaid|flow|csv [--out OUT]
  FILE                   a trace or sweep document (.json), as saved by the app or written by npm run record;
                         a compare saved as one file gives each of its runs in turn
  --format mermaid       a run as a Mermaid sequenceDiagram (socket writes and reads; collapsed above 20 messages)
  --format flow          a run as a plain-text flow in fixed-width columns, like Wireshark's Flow Graph
  --format csv           a depth sweep in redis-benchmark's --csv columns (one row per depth; n/a where not measured)
  --out OUT              write the text to OUT instead of printing it`;

export interface ExportOptions {
  file: string;
  format: ExportFormat;
  out: string | undefined;
}

export function parseExportOptions(argv: string[]): ExportOptions | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { format: { type: 'string' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError((error as Error).message.replace(/^.*?: /, '').replace(/\. To specify.*$/, ''));
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0) throw new CliError('name the trace or sweep file to export');
  if (positionals.length > 1) throw new CliError(`export one file at a time, not ${positionals.length} (${positionals.join(', ')})`);
  if (values.format === undefined) throw new CliError(`--format is required: ${EXPORT_FORMATS.join(', ')}`);
  const format = EXPORT_FORMATS.find((f) => f === values.format);
  if (!format) throw new CliError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, not "${values.format}"`);
  return { file: positionals[0]!, format, out: values.out };
}

/** The text of `document` in `format`; a CliError when the format does not fit the kind of document. */
export function exportText(document: PipescopeDocument, format: ExportFormat): string {
  if (document.kind === 'sweep') {
    if (format !== 'csv') throw new CliError(`--format ${format} draws one run; this file is a depth sweep: use --format csv`);
    return sweepBenchmarkCsv(document.doc);
  }
  if (format === 'csv') throw new CliError('--format csv is for depth sweeps (redis-benchmark columns); a run\'s per-command table CSV is the app\'s Export → CSV');
  const textOf = (doc: TraceDocument) => (format === 'mermaid' ? mermaidSequence(doc) : textFlow(doc));
  if (document.kind === 'trace') return textOf(document.doc);
  // A compare saved as one file: each run in turn, in the order it was shown, under a comment naming it.
  const comment = format === 'mermaid' ? '%%' : '#';
  return document.docs.map((doc, i) => `${comment} run ${i + 1} of ${document.docs.length}: ${doc.run.mode} ${doc.run.n} × ${doc.run.command}, repeat ${doc.run.repeat + 1} (${doc.run.id})\n${textOf(doc)}`).join('\n');
}

/** Reads, checks and converts the file; writes the text to --out or stdout. Throws Error with a message a person can act on. */
export function runExport(options: ExportOptions): { text: string; written: string | null } {
  // Plain or compact, gzipped or not (trace-files-node.ts): the messages name the file and say what is wrong.
  const { document } = readDocumentFile(options.file);
  const out = exportText(document, options.format);
  if (options.out !== undefined) writeFileSync(options.out, out);
  return { text: out, written: options.out ?? null };
}
