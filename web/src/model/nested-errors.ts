// Errors inside a reply rather than as the reply: a runtime error inside MULTI/EXEC is an element of
// EXEC's array ({"error": …} in the recorded preview), so the EXEC arrow itself is not an error reply
// and nothing marked it. This counts them for the diagram's mark and the tooltip
// (format/command-details.ts says it in words). The recorded reply is
// a preview cut at REPLY_PREVIEW_CHARS: past the cut the count is a lower bound, except for a run whose
// only error is the one Pipescope planted (run.injectedError, runtime, in multi): exactly one.
// EXEC's array holds one element per queued command, in order, so an error element also names the
// command that failed: failedInTransaction() maps each such queued command (its QUEUED reply no error)
// to the error EXEC gave for it, for the mark on that command's own arrow.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { operationAt } from '../../../trace/format/wire-layout.ts';

export interface NestedErrors {
  count: number;
  /** True when the preview was cut and more errors may lie past it. */
  atLeast: boolean;
}

const ERROR_ELEMENT = /\{"error":/g;
const CUT = /… \(\d+ bytes\)$/;

/** The error elements inside command i's array reply, or null when it holds none (or is itself an error). */
export function nestedErrors(doc: TraceDocument, index: number): NestedErrors | null {
  const command = doc.commands[index];
  if (!command || 'error' in command || typeof command.reply !== 'string' || !command.reply.startsWith('[')) return null;
  const seen = command.reply.match(ERROR_ELEMENT)?.length ?? 0;
  const cut = CUT.test(command.reply);
  const planted = doc.run.injectedError?.kind === 'runtime' && doc.run.mode === 'multi' && index === doc.commands.length - (doc.run.probes.heldConnection ? 2 : 1);
  if (planted) return { count: 1, atLeast: false };
  if (seen === 0) return null;
  return { count: seen, atLeast: cut };
}

/**
 * The top-level elements of an array preview ("[1,{"error":"ERR x"},…") as far as the preview reaches:
 * for each, its error message when it is an error element, else null. JSON strings (with escapes) and
 * nested arrays or objects are skipped whole; an element cut by the preview is left out.
 */
export function arrayPreviewElements(preview: string): (string | null)[] {
  const elements: (string | null)[] = [];
  if (!preview.startsWith('[')) return elements;
  let depth = 0;
  let start = 1;
  let inString = false;
  for (let i = 1; i < preview.length; i++) {
    const ch = preview[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    else if ((ch === ',' || ch === ']') && depth === 0) {
      elements.push(errorOf(preview.slice(start, i)));
      if (ch === ']') return elements;
      start = i + 1;
    }
  }
  return elements; // cut: the element under way is not known whole
}

function errorOf(text: string): string | null {
  const element = text.trim();
  if (!element.startsWith('{"error":')) return null;
  try {
    const parsed = JSON.parse(element) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

/**
 * In a MULTI/EXEC run, the wire commands that failed when EXEC ran them: wire index → the error EXEC's
 * reply gave for it (null when the planted error lies past the preview's cut, so only its place is known).
 * Empty for other modes, an aborted transaction (EXECABORT: nothing ran) or no error.
 */
export function failedInTransaction(doc: TraceDocument): Map<number, string | null> {
  const failed = new Map<number, string | null>();
  if (doc.run.mode !== 'multi') return failed;
  // EXEC: the last work command, before the held-connection PING when there is one.
  const execIndex = doc.commands.length - (doc.run.probes.heldConnection ? 2 : 1);
  const exec = doc.commands[execIndex];
  if (!exec || 'error' in exec || typeof exec.reply !== 'string') return failed;
  // Element k of EXEC's array is queued command k: wire command k + 1 (after MULTI).
  arrayPreviewElements(exec.reply).forEach((error, k) => {
    if (error !== null) failed.set(k + 1, error);
  });
  const planted = doc.run.injectedError;
  if (planted?.kind === 'runtime') {
    const wire = Array.from({ length: execIndex }, (_, i) => i).find((i) => operationAt(doc.run, i) === planted.operation);
    if (wire !== undefined && !failed.has(wire)) failed.set(wire, null);
  }
  return failed;
}
