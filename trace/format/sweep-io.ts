// Reading sweep documents (files, the CLI's --out, the live socket's sweep-end), with errors a person
// can act on; and telling a sweep file from a trace file or a bundle of traces (trace-bundle.ts), plain or
// compact (compact-trace.ts), on import.
import { compactBudgetFor, decodeCompactTrace, isCompactTrace } from './compact-trace.ts';
import { checkJsonText, decodeBudget, withoutBom, type DecodeBudget } from './decode-budget.ts';
import { TraceError } from './trace-builder.ts';
import { describeIssues, verifyTrace } from './trace-io.ts';
import { SWEEP_FORMAT, SWEEP_FORMAT_VERSION, SweepDocumentSchema, type SweepDocument } from './sweep-format.ts';
import type { TraceDocument } from './trace-format.ts';
import { isTraceBundle, verifyBundle } from './trace-bundle.ts';

export function serializeSweep(doc: SweepDocument): string {
  return JSON.stringify(doc);
}

export function verifySweep(json: unknown): SweepDocument {
  const version = (json as { version?: unknown }).version;
  if (version !== SWEEP_FORMAT_VERSION) {
    throw new TraceError(`Unsupported sweep version ${JSON.stringify(version)}; this Pipescope reads version ${SWEEP_FORMAT_VERSION}.`);
  }
  const parsed = SweepDocumentSchema.safeParse(json);
  if (!parsed.success) throw new TraceError(`Invalid sweep: ${describeIssues(parsed.error)}`);
  const doc = parsed.data;
  const depths = doc.points.map((p) => p.depth);
  if (JSON.stringify(depths) !== JSON.stringify(doc.sweep.depths.slice(0, depths.length))) {
    throw new TraceError('Invalid sweep: its points do not follow the sweep\'s depths.');
  }
  for (const point of doc.points) {
    if (point.runs.length !== doc.sweep.repeats) throw new TraceError(`Invalid sweep: depth ${point.depth} has ${point.runs.length} runs, not ${doc.sweep.repeats}.`);
  }
  return doc;
}

/** A file's document: one run, several shown together (a bundle, in their order), or a depth sweep. */
export type PipescopeDocument =
  | { kind: 'trace'; doc: TraceDocument }
  | { kind: 'traces'; docs: TraceDocument[] }
  | { kind: 'sweep'; doc: SweepDocument };

/**
 * A file's text as whichever Pipescope document it is; throws TraceError otherwise, DecodeLimitError (naming
 * the limit) before JSON.parse or a compact table would build more than `budget` allows (decode-budget.ts;
 * default: the budget for the text's own length). A leading byte-order mark is read past, as browsers do.
 */
export function parseDocument(fileText: string, budget: DecodeBudget = decodeBudget(fileText.length)): PipescopeDocument {
  const text = withoutBom(fileText);
  checkJsonText(text, budget);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text; only where it fails is said, so no message carries the file's content.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new TraceError(`Not a Pipescope file: the file is not valid JSON${at === undefined ? '' : ` (at character ${at})`}.`);
  }
  const format = typeof json === 'object' && json !== null ? (json as { format?: unknown }).format : undefined;
  if (format === SWEEP_FORMAT) return { kind: 'sweep', doc: verifySweep(json) };
  // A compact trace (or bundle) is the same document written denser: decoded, then held to the same rules.
  const plain = isCompactTrace(json) ? decodeCompactTrace(json, compactBudgetFor(text.length)) : json;
  if (isTraceBundle(plain)) return { kind: 'traces', docs: verifyBundle(plain) };
  return { kind: 'trace', doc: verifyTrace(plain) };
}

/** The runs a trace or bundle holds, in order; none for a sweep. */
export function tracesOf(document: PipescopeDocument): TraceDocument[] {
  return document.kind === 'trace' ? [document.doc] : document.kind === 'traces' ? document.docs : [];
}
