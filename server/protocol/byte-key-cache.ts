// A small cache keyed by a run of bytes, looked up without allocating: the bytes are hashed (FNV-1a)
// where they lie in the chunk and compared byte for byte with the stored key. The observing proxy's
// parsers keep the commands and replies they have already read here, so a pipeline of the same few
// commands costs one hash and one comparison per command. Bounded: it starts afresh when full.
// The key last found or stored is remembered: in a pipeline of one command repeated, the next command's
// bytes are compared with it where they lie (repeatAt), before they are even measured or hashed.
export class ByteKeyCache<T> {
  private readonly buckets = new Map<number, { key: Buffer; value: T }[]>();
  private size = 0;
  private last: { key: Buffer; value: T } | null = null;

  constructor(private readonly capacity: number) {}

  get(chunk: Uint8Array, start: number, end: number): T | undefined {
    if (this.last && same(this.last.key, chunk, start, end)) return this.last.value;
    const bucket = this.buckets.get(hash(chunk, start, end));
    if (!bucket) return undefined;
    for (const entry of bucket) {
      if (same(entry.key, chunk, start, end)) {
        this.last = entry;
        return entry.value;
      }
    }
    return undefined;
  }

  /**
   * Where the last key found or stored ends if `chunk` holds it again from `start` (-1 otherwise); its
   * value is then `lastValue`. For keys that delimit themselves (a whole RESP command or frame), the same
   * bytes at `start` are the same item, whatever follows them.
   */
  repeatAt(chunk: Uint8Array, start: number): number {
    const key = this.last?.key;
    if (!key || start + key.length > chunk.length) return -1;
    for (let i = 0; i < key.length; i++) if (key[i] !== chunk[start + i]) return -1;
    return start + key.length;
  }

  /** The value of the last key found or stored (after repeatAt matched it). */
  get lastValue(): T {
    return this.last!.value;
  }

  set(chunk: Uint8Array, start: number, end: number, value: T): void {
    if (this.size >= this.capacity) {
      this.buckets.clear();
      this.size = 0;
      this.last = null;
    }
    const h = hash(chunk, start, end);
    const bucket = this.buckets.get(h) ?? [];
    const entry = { key: Buffer.from(chunk.subarray(start, end)), value };
    bucket.push(entry);
    this.buckets.set(h, bucket);
    this.last = entry;
    this.size++;
  }
}

function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

function same(key: Buffer, bytes: Uint8Array, start: number, end: number): boolean {
  if (key.length !== end - start) return false;
  for (let i = 0; i < key.length; i++) if (key[i] !== bytes[start + i]) return false;
  return true;
}
