// One GET for every web loader (?trace= traces, the recorded runs' index, the tour's manifest): the body,
// or an Error that gives the HTTP status. Each caller says what it was loading and from where. The body
// is read as a stream and refused past MAX_INFLATED_BYTES (trace/format/decode-budget.ts), so a link to
// a huge file costs at most that; requests carry no credentials (a trace is a public file).
import { DecodeLimitError, MAX_INFLATED_BYTES, sizeText } from '../../../trace/format/decode-budget.ts';
import { textOfBody } from './gzip-text.ts';

/** A response that was not ok; the message gives its status and reason ("HTTP 404 Not Found"). */
export class HttpError extends Error {
  override name = 'HttpError';
}

/** The body's bytes; rejects with HttpError when the response is not ok, DecodeLimitError past `maxBytes`. */
export async function fetchBytes(url: string, maxBytes = MAX_INFLATED_BYTES): Promise<Uint8Array> {
  return responseBytes(await fetch(url, { credentials: 'omit' }), maxBytes);
}

/** A response's body, read in chunks and given up (cancelled) as soon as it passes `maxBytes`. */
export async function responseBytes(response: Response, maxBytes = MAX_INFLATED_BYTES): Promise<Uint8Array> {
  if (!response.ok) throw new HttpError(`HTTP ${response.status} ${response.statusText}`.trim());
  const refused = () => new DecodeLimitError(`the file is larger than ${sizeText(maxBytes)}; that is not a trace Pipescope can show.`);
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    void response.body?.cancel();
    throw refused();
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      void reader.cancel();
      throw refused();
    }
    chunks.push(value);
  }
  return joinChunks(chunks, total);
}

/** The chunks as one array of `total` bytes. */
export function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The body as text, gunzipped first when it is gzip (textOfBody). */
export async function fetchText(url: string): Promise<string> {
  return textOfBody(await fetchBytes(url));
}
