// Reads RESP2 replies into values for the raw engine: simple strings, errors, integers, bulk strings,
// arrays. Bytes arrive in arbitrary chunks; each complete reply is handed on in order as soon as its
// last byte is read. It sits on the raw engine's hot path, so it works on bytes: integers are parsed
// digit by digit, and a simple string equal to the previous one ("+PONG", "+OK" a thousand times
// over) is the same string again rather than a new one.
export type RespValue = string | number | null | RespValue[] | RespError;

export class RespError {
  constructor(readonly message: string) {}
}

const CR = 13;
const LF = 10;
const MINUS = 45;
const ZERO = 48;

const INCOMPLETE = Symbol('incomplete');

export class RespReplyReader {
  /** Bytes of a reply not yet complete, carried over to the next chunk. */
  private rest: Buffer | null = null;
  private lastSimple: { bytes: Buffer; value: string } | null = null;
  /** Where the reply parseAt last returned ends (kept here rather than in a new object per reply). */
  private end = 0;

  /** Appends a chunk; hands every reply it completed to `onReply`, in order; returns how many. */
  feed(chunk: Buffer, onReply: (value: RespValue) => void): number {
    const buffer = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    let offset = 0;
    let count = 0;
    for (;;) {
      const value = this.parseAt(buffer, offset);
      if (value === INCOMPLETE) break;
      onReply(value);
      count++;
      offset = this.end;
    }
    this.rest = offset < buffer.length ? buffer.subarray(offset) : null;
    return count;
  }

  /** The reply starting at offset (its end in this.end), or INCOMPLETE. */
  private parseAt(buffer: Buffer, offset: number): RespValue | typeof INCOMPLETE {
    if (offset >= buffer.length) return INCOMPLETE;
    const newline = buffer.indexOf(LF, offset);
    if (newline === -1) return INCOMPLETE;
    const lineEnd = buffer[newline - 1] === CR ? newline - 1 : newline;
    const next = newline + 1;
    this.end = next;
    const type = buffer[offset]!;
    switch (type) {
      case 43: // +
        return this.simpleString(buffer, offset + 1, lineEnd);
      case 45: // -
        return new RespError(buffer.toString('utf8', offset + 1, lineEnd));
      case 58: // :
        return integerAt(buffer, offset + 1, lineEnd);
      case 36: { // $
        const size = integerAt(buffer, offset + 1, lineEnd);
        if (size < 0) return null;
        if (buffer.length < next + size + 2) return INCOMPLETE;
        this.end = next + size + 2;
        return buffer.toString('utf8', next, next + size);
      }
      case 42: { // *
        const count = integerAt(buffer, offset + 1, lineEnd);
        if (count < 0) return null;
        const items: RespValue[] = [];
        for (let i = 0; i < count; i++) {
          const item = this.parseAt(buffer, this.end);
          if (item === INCOMPLETE) return INCOMPLETE;
          items.push(item);
        }
        return items;
      }
      default:
        throw new Error(`Unexpected RESP type byte ${JSON.stringify(String.fromCharCode(type))} in a reply`);
    }
  }

  private simpleString(buffer: Buffer, start: number, end: number): string {
    const last = this.lastSimple;
    if (last && last.bytes.length === end - start && sameBytes(last.bytes, buffer, start)) return last.value;
    const value = buffer.toString('utf8', start, end);
    // Only short ones are kept to compare against: status replies, not long strings.
    if (end - start <= 32) this.lastSimple = { bytes: Buffer.from(buffer.subarray(start, end)), value };
    return value;
  }
}

function sameBytes(bytes: Buffer, buffer: Buffer, start: number): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buffer[start + i]) return false;
  return true;
}

/** A RESP integer line, read digit by digit (no string is made). */
function integerAt(buffer: Buffer, start: number, end: number): number {
  let i = start;
  const negative = buffer[i] === MINUS;
  if (negative) i++;
  let value = 0;
  for (; i < end; i++) value = value * 10 + (buffer[i]! - ZERO);
  return negative ? -value : value;
}
