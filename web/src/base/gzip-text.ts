// A fetched or opened file's bytes as text, gunzipped first when they are gzip. Traces for the web are
// served as `run.json.gz` (trace/format/compact-trace.ts, gzipped): a static host sends such a file as
// application/gzip with no Content-Encoding, so the page gets the gzip bytes and must inflate them
// itself (DecompressionStream); a host that does set Content-Encoding: gzip has the browser inflate
// it, and the page gets plain JSON. Sniffing the first two bytes (1f 8b, which no JSON text starts
// with) handles both, whatever the file is called. Used by every web loader
// (state/trace-decode.ts for ?trace= links, prefetched downloads and opened files; base/fetch-body.ts for
// the recorded runs' index and the tour's manifest).
//
// The gunzip is bounded (trace/format/decode-budget.ts): the gzip goes in GZIP_SLICE bytes at a time and the
// stream's backpressure holds it there, so at most ~1,032 × GZIP_SLICE bytes (deflate's largest ratio) are
// inflated ahead of the count, which stops at the limit for the file's size, whatever the file claims.
import { decodeBudget, inflateRefusal, DecodeLimitError } from '../../../trace/format/decode-budget.ts';

/** The two bytes every gzip member starts with (RFC 1952). */
const GZIP_MAGIC = [0x1f, 0x8b] as const;
/** Gzip bytes handed to the decompressor at once: at most ~4 MiB of output each. */
const GZIP_SLICE = 4096;

export type FileBody = string | ArrayBuffer | Uint8Array;

export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1];
}

/**
 * The body as UTF-8 text (a string is taken as it is; a byte-order mark is dropped); gunzipped first when it
 * starts with the gzip magic, refused past `maxBytes` inflated (default: the budget for its size). Rejects with a clear Error.
 */
export async function textOfBody(body: FileBody, maxBytes?: number): Promise<string> {
  if (typeof body === 'string') return body;
  const bytes = body instanceof Uint8Array ? body : new Uint8Array(body);
  return new TextDecoder().decode(isGzip(bytes) ? await gunzip(bytes, maxBytes ?? decodeBudget(bytes.length).inflatedBytes) : bytes);
}

async function gunzip(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  if (typeof DecompressionStream === 'undefined') {
    throw new Error('the file is gzip-compressed and this browser cannot decompress it (no DecompressionStream); serve it uncompressed.');
  }
  let offset = 0;
  const input = new ReadableStream<BufferSource>({
    // Pulled only when the decompressor wants more: one slice at a time (highWaterMark 0 below).
    pull(controller) {
      if (offset >= bytes.length) {
        controller.close();
        return;
      }
      controller.enqueue(bytes.subarray(offset, offset + GZIP_SLICE) as BufferSource); // never a SharedArrayBuffer: fetched or read bytes
      offset += GZIP_SLICE;
    },
  }, { highWaterMark: 0 });
  const reader = input.pipeThrough(new DecompressionStream('gzip')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        void reader.cancel();
        throw inflateRefusal(maxBytes, bytes.length);
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof DecodeLimitError) throw error;
    throw new Error(`the file starts like gzip but does not decompress: it is damaged or cut short (${(error as Error).message || String(error)}).`);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
