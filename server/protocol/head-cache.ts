// A chunk's head of bytes (its first HEAD_BYTES, escaped: what the wire view shows), looked up by those
// bytes among the heads already written. A pipeline that sends the same commands round after round, and
// the replies that answer them, make the same head every time: it is hashed where it lies in the chunk
// instead of being escaped again, and the same string is handed on (a record then keeps it once).
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { ByteKeyCache } from './byte-key-cache.ts';

/** Distinct heads kept, per kind (the cache starts afresh beyond). */
const CACHED_HEADS = 1024;

export class HeadCache {
  /** Chunks of at most HEAD_BYTES (the head is the whole chunk), and longer ones (the head ends with "…"). */
  private readonly whole = new ByteKeyCache<string>(CACHED_HEADS);
  private readonly cut = new ByteKeyCache<string>(CACHED_HEADS);

  /** escapeBytes(chunk, HEAD_BYTES), the same string for the same first bytes. */
  of(chunk: Uint8Array): string {
    const end = Math.min(chunk.length, HEAD_BYTES);
    const cache = chunk.length > HEAD_BYTES ? this.cut : this.whole;
    let head = cache.get(chunk, 0, end);
    if (head === undefined) {
      head = escapeBytes(chunk, HEAD_BYTES);
      cache.set(chunk, 0, end, head);
    }
    return head;
  }
}
