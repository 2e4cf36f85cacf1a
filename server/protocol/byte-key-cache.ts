// A small cache keyed by a run of bytes, looked up without allocating: the bytes are hashed (FNV-1a)
// where they lie in the chunk and compared byte for byte with the stored key. The observing proxy's
// parsers keep the commands and replies they have already read here, so a pipeline of the same few
// commands costs one hash and one comparison per command. Bounded: it starts afresh when full.
export class ByteKeyCache<T> {
  private readonly buckets = new Map<number, { key: Buffer; value: T }[]>();
  private size = 0;

  constructor(private readonly capacity: number) {}

  get(chunk: Uint8Array, start: number, end: number): T | undefined {
    const bucket = this.buckets.get(hash(chunk, start, end));
    if (!bucket) return undefined;
    for (const entry of bucket) if (same(entry.key, chunk, start, end)) return entry.value;
    return undefined;
  }

  set(chunk: Uint8Array, start: number, end: number, value: T): void {
    if (this.size >= this.capacity) {
      this.buckets.clear();
      this.size = 0;
    }
    const h = hash(chunk, start, end);
    const bucket = this.buckets.get(h) ?? [];
    bucket.push({ key: Buffer.from(chunk.subarray(start, end)), value });
    this.buckets.set(h, bucket);
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
