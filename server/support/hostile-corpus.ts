// The hostile trace corpus, written in well under a second for the tests that open it in the page, the
// embed, the element and the CLI: a compact trace of ~200 bytes gzipped declaring a table of 8,000,000
// rows × 16 columns; a ~400 KB gzip that inflates to a 400 MB JSON array; an 8 GiB gzip bomb (~8 MB);
// nesting 100,000 deep; a string of 2 MiB. The bombs are valid gzip (RFC 1951/1952, CRC and size
// included) built by hand rather than compressed: one deflate block of literals, then a dynamic block
// whose only codes are "length 258" and one distance, so each 2 bits write 258 more bytes of the period,
// then the last literals. Building them costs their compressed size, not what they inflate to.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, gzipSync } from 'node:zlib';

export interface HostileFile {
  /** File name (…json.gz when gzipped). */
  name: string;
  /** What it is, for test names and the measurements' table. */
  what: string;
  bytes: Buffer;
}

/** LSB-first bit writer (RFC 1951 §3.1.1): header fields as numbers, Huffman codes most-significant bit first. */
class BitWriter {
  private readonly bytes: number[] = [];
  private acc = 0;
  private count = 0;

  bits(value: number, n: number): void {
    for (let i = 0; i < n; i++) this.bit((value >>> i) & 1);
  }

  code(code: number, length: number): void {
    for (let i = length - 1; i >= 0; i--) this.bit((code >>> i) & 1);
  }

  bit(b: number): void {
    this.acc |= b << this.count;
    if (++this.count === 8) {
      this.bytes.push(this.acc);
      this.acc = 0;
      this.count = 0;
    }
  }

  /** Bytes complete so far, taken out (the partial byte stays). */
  take(): Buffer {
    return Buffer.from(this.bytes.splice(0));
  }

  /** The last bits, padded to a byte. */
  finish(): Buffer {
    if (this.count > 0) this.bytes.push(this.acc);
    this.acc = 0;
    this.count = 0;
    return this.take();
  }
}

/** Fixed-Huffman code (RFC 1951 §3.2.6) of a literal byte. */
function fixedLiteral(w: BitWriter, byte: number): void {
  if (byte < 144) w.code(0x30 + byte, 8);
  else w.code(0x190 + byte - 144, 9);
}

/** CRC-32 of `crcB`'s data appended to `crcA`'s, `lengthB` bytes long (zlib's crc32_combine, GF(2) matrices). */
function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  const times = (mat: Uint32Array, vec: number) => {
    let sum = 0;
    for (let i = 0; vec !== 0; i++, vec >>>= 1) if (vec & 1) sum ^= mat[i]!;
    return sum >>> 0;
  };
  const square = (mat: Uint32Array) => Uint32Array.from({ length: 32 }, (_, i) => times(mat, mat[i]!));
  let odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  for (let i = 1; i < 32; i++) odd[i] = 1 << (i - 1);
  let even = square(odd);
  odd = square(even);
  let crc = crcA >>> 0;
  let len = lengthB;
  do {
    even = square(odd);
    if (len % 2) crc = times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    odd = square(even);
    if (len % 2) crc = times(odd, crc);
    len = Math.floor(len / 2);
  } while (len !== 0);
  return (crc ^ crcB) >>> 0;
}

/** CRC-32 of `data` repeated `times` times, by doubling. */
function crc32Repeated(data: Buffer, times: number): number {
  let result = 0;
  let resultLength = 0;
  let power = crc32(data);
  let powerLength = data.length;
  for (let n = times; n > 0; n = Math.floor(n / 2)) {
    if (n % 2) {
      result = resultLength === 0 ? power : crc32Combine(result, power, powerLength);
      resultLength += powerLength;
    }
    power = crc32Combine(power, power, powerLength);
    powerLength *= 2;
  }
  return result;
}

/**
 * A gzip member whose text is `prefix`, then `period` (≤ 32 KiB) repeated to at least `bulkBytes`, then
 * `suffix`. The repeated part is a whole number of 4 × 258-byte matches, rounded down; `inflated` says exactly.
 */
export function gzipBomb(prefix: string, period: string, bulkBytes: number, suffix: string): { bytes: Buffer; inflated: number } {
  const head = Buffer.from(prefix + period, 'latin1');
  const tail = Buffer.from(suffix, 'latin1');
  const quads = Math.floor(bulkBytes / 1032); // one byte of the bulk = 4 matches = 1032 bytes
  const w = new BitWriter();
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  // Block 1: fixed Huffman, not final: the prefix and one period as literals.
  w.bits(0, 1);
  w.bits(1, 2);
  for (const b of head) fixedLiteral(w, b);
  w.code(0, 7); // end of block (256)
  // Block 2: dynamic, not final. Literal/length codes: 256 → "0", 285 (length 258) → "1"; one distance code → "0".
  const distanceSymbol = distanceCode(period.length);
  w.bits(0, 1);
  w.bits(2, 2);
  w.bits(286 - 257, 5); // HLIT
  w.bits(distanceSymbol.symbol, 5); // HDIST = codes - 1
  w.bits(18 - 4, 4); // HCLEN: code-length code lengths for 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1
  const clOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1];
  const clLengths: Record<number, number> = { 18: 1, 0: 2, 1: 2 }; // canonical: 18 → 0, 0 → 10, 1 → 11
  for (const s of clOrder) w.bits(clLengths[s] ?? 0, 3);
  const cl = (s: 0 | 1 | 18) => (s === 18 ? w.code(0, 1) : w.code(s === 0 ? 2 : 3, 2));
  const zeros = (n: number) => {
    for (let left = n; left > 0;) {
      const run = Math.min(138, left);
      if (run < 11) throw new Error('zero run too short for code 18');
      cl(18);
      w.bits(run - 11, 7);
      left -= run;
    }
  };
  zeros(138);
  zeros(118); // literals 0–255: no code
  cl(1); // 256
  zeros(28); // 257–284
  cl(1); // 285
  for (let d = 0; d < distanceSymbol.symbol; d++) cl(0);
  cl(1);
  // The body: each match "1" (length 258) then "0" (the distance; its extra bits, if any, zero).
  const match = () => {
    w.code(1, 1);
    w.code(0, 1);
    w.bits(distanceSymbol.extra, distanceSymbol.extraBits);
  };
  if (distanceSymbol.extraBits !== 0) throw new Error('periods needing distance extra bits are not supported');
  const parts: Buffer[] = [header, w.take()];
  // Four matches complete one byte (with the header's last bits); the next four a byte of matches alone,
  // which every later byte repeats: the match bits are periodic, 2 bits each.
  for (let i = 0; i < 4; i++) match();
  parts.push(w.take());
  for (let i = 0; i < 4; i++) match();
  const pattern = w.take();
  if (pattern.length !== 1) throw new Error('expected one byte per four matches');
  parts.push(Buffer.alloc(quads - 1, pattern[0]!));
  w.code(0, 1); // end of block 2
  // Block 3: fixed Huffman, final: the suffix.
  w.bits(1, 1);
  w.bits(1, 2);
  for (const b of tail) fixedLiteral(w, b);
  w.code(0, 7);
  parts.push(w.finish());
  const bulk = quads * 1032;
  const inflated = head.length + bulk + tail.length;
  // CRC of head + bulk + tail: the head ends a period, and a period (1 or 2 bytes) divides the bulk.
  let crc = crc32(head);
  crc = crc32Combine(crc, crc32Repeated(Buffer.from(period, 'latin1'), bulk / period.length), bulk);
  crc = crc32Combine(crc, crc32(tail), tail.length);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(inflated % 2 ** 32, 4);
  parts.push(trailer);
  return { bytes: Buffer.concat(parts), inflated };
}

/** Distance codes 0–3 are distances 1–4, no extra bits (RFC 1951 §3.2.5). */
function distanceCode(distance: number): { symbol: number; extra: number; extraBits: number } {
  if (distance < 1 || distance > 2) throw new Error('a period of 1 or 2 bytes');
  return { symbol: distance - 1, extra: 0, extraBits: 0 };
}

const MiB = 1024 * 1024;

/** The compact trace that declares 8,000,000 records of 16 integer columns, each one run [[7, 8e6]]. */
export function tableBombText(rows = 8_000_000, columns = 16): string {
  const keys = Array.from({ length: columns }, (_, i) => `k${i}`);
  return JSON.stringify({
    format: 'pipescope-trace-columns',
    version: 1,
    trace: { commands: { $table: rows, keys, shapes: [keys.map((_, i) => i)], columns: keys.map(() => ({ ints: { values: [[7, rows]] } })) } },
  });
}

/** Every file of the corpus, built in memory. */
export function hostileCorpus(): HostileFile[] {
  const array = gzipBomb('[', '0,', 400 * 1000 * 1000, '0]');
  const bomb = gzipBomb('', '\0', 8 * 1024 * MiB, '');
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const hostileString = JSON.stringify({ format: 'pipescope-trace', version: 4, note: 'x'.repeat(2 * MiB) });
  return [
    { name: 'table-8m-rows.json.gz', what: `compact trace declaring 8,000,000 × 16 cells`, bytes: gzipSync(tableBombText(), { level: 9 }) },
    { name: 'array-400mb.json.gz', what: `gzip inflating to a ${Math.round(array.inflated / 1e6)} MB JSON array`, bytes: array.bytes },
    { name: 'bomb-8gib.json.gz', what: `gzip bomb inflating to ${(bomb.inflated / 1024 / MiB).toFixed(2)} GiB`, bytes: bomb.bytes },
    { name: 'deep-nesting.json', what: 'arrays nested 100,000 deep', bytes: Buffer.from(deep) },
    { name: 'long-string.json', what: 'a 2 MiB string', bytes: Buffer.from(hostileString) },
  ];
}

/** Writes the corpus into `folder`; returns the files. */
export function writeHostileCorpus(folder: string): HostileFile[] {
  mkdirSync(folder, { recursive: true });
  const files = hostileCorpus();
  for (const f of files) writeFileSync(join(folder, f.name), f.bytes);
  return files;
}
