// Errors inside a reply rather than as the reply: a runtime error inside MULTI/EXEC is an element of
// EXEC's array ({"error": …} in the recorded preview), so the EXEC arrow itself is not an error reply
// and nothing marked it. This counts them for the diagram's mark and the tooltip
// (format/command-details.ts says it in words). The recorded reply is
// a preview cut at REPLY_PREVIEW_CHARS: past the cut the count is a lower bound, except for a run whose
// only error is the one Pipescope planted (run.injectedError, runtime, in multi): exactly one.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

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
  const planted = doc.run.injectedError?.kind === 'runtime' && doc.run.mode === 'multi' && index === doc.commands.length - 1;
  if (planted) return { count: 1, atLeast: false };
  if (seen === 0) return null;
  return { count: seen, atLeast: cut };
}
