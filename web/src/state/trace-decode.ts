// Decoding one opened or fetched file into a Pipescope document: gunzip (bounded), then parseDocument with
// the budget for the file's size (trace/format/decode-budget.ts), then the trace's own checks. The same
// function runs in the decode worker (trace-decode-worker.ts, so a hostile file can at worst end the worker)
// and, where no worker can start, on the page itself; trace-decoder.ts picks. Its messages are the
// worker's protocol: what goes in and what comes back, as structured clone carries them.
import { decodeBudget, DecodeLimitError } from '../../../trace/format/decode-budget.ts';
import { parseDocument, type PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import { textOfBody, type FileBody } from '../base/gzip-text.ts';

/** A file to decode: its bytes (transferred to the worker) or its text. */
export interface DecodeRequest {
  id: number;
  body: FileBody;
}

/** Why a file could not be decoded, in kinds a host page may be told (no content of the file in them). */
export type DecodeFailureKind = 'refused' | 'invalid';

/**
 * The worker's answer. `document` is the verified model, exactly what parseDocument gives on the page.
 * A later version may add, beside it, the layout's typed columns (one Float64Array per field, moved by
 * transfer rather than copied); the page then uses them where given and derives them where not.
 */
export type DecodeReply =
  | { id: number; ok: true; document: PipescopeDocument }
  | { id: number; ok: false; kind: DecodeFailureKind; message: string };

/** The document a file holds; throws TraceError (DecodeLimitError when refused for its size) or Error with a clear message. */
export async function decodeBody(body: FileBody): Promise<PipescopeDocument> {
  const inputBytes = typeof body === 'string' ? body.length : body.byteLength;
  const budget = decodeBudget(inputBytes);
  const text = await textOfBody(body, budget.inflatedBytes);
  return parseDocument(text, budget);
}

/** decodeBody as the worker's reply: never throws. */
export async function decodeReply(request: DecodeRequest): Promise<DecodeReply> {
  try {
    return { id: request.id, ok: true, document: await decodeBody(request.body) };
  } catch (error) {
    return { id: request.id, ok: false, kind: error instanceof DecodeLimitError ? 'refused' : 'invalid', message: (error as Error).message || String(error) };
  }
}
