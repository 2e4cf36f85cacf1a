// Counts complete RESP messages in a byte stream fed chunk by chunk, without keeping their contents.
// The socket probe runs one per direction: on what the client writes (requests: arrays of bulk
// strings, or inline commands such as "PING\r\n") and on what it receives (RESP2/RESP3 replies).
// This is how a probe knows that "this write carried 100 commands" or "this chunk completed 37
// replies" from the bytes themselves, independent of the client library.
//
// It runs on every byte a measured run sends and receives, so it works on byte codes: a table for
// the type byte, the native indexOf to find the end of a line whose content does not matter, and
// lengths parsed digit by digit; nothing is copied or turned into strings.

const CR = 13;
const LF = 10;
const MINUS = 45;
const ZERO = 48;

const enum State {
  Type,
  Line,
  Bulk,
}

const enum Kind {
  /** No type byte: an inline command, the whole line is the message. */
  Inline,
  /** One line and done: + - : and RESP3's _ , # ( */
  Simple,
  /** A length line, then that many bytes and CRLF: $ and RESP3's = ! */
  Bulk,
  /** A count line, then that many elements: * and RESP3's ~ > (and any unknown byte inside an aggregate) */
  Aggregate,
  /** A count line, then twice that many elements: RESP3's % | */
  Map,
}

// RESP3 types are included so that a server speaking RESP3 is still counted correctly.
const KIND_OF_BYTE = new Uint8Array(256);
for (const [kind, types] of [[Kind.Simple, '+-:_,#('], [Kind.Bulk, '$=!'], [Kind.Aggregate, '*~>'], [Kind.Map, '%|']] as const) {
  for (const type of types) KIND_OF_BYTE[type.charCodeAt(0)] = kind;
}

export class RespFrameCounter {
  private state = State.Type;
  private kind = Kind.Inline;
  /** Inline lines: bytes so far, and whether the last one was CR (a trailing CR is not content). */
  private lineBytes = 0;
  private lastWasCr = false;
  /** Length lines, read as parseInt would: optional minus, digits, anything after them ignored. */
  private negative = false;
  private digits = 0;
  private value = 0;
  private stopped = false;
  private bulkRemaining = 0;
  /** Elements still expected by each open aggregate, innermost last. */
  private readonly open: number[] = [];

  /** True between messages: nothing of a started message is pending. */
  get atBoundary(): boolean {
    return this.state === State.Type && this.open.length === 0;
  }

  /** Feeds one chunk; returns how many top-level messages it completed. */
  feed(chunk: Uint8Array): number {
    let completed = 0;
    let i = 0;
    const length = chunk.length;
    while (i < length) {
      if (this.state === State.Bulk) {
        const take = Math.min(this.bulkRemaining, length - i);
        i += take;
        this.bulkRemaining -= take;
        if (this.bulkRemaining === 0) {
          this.state = State.Type;
          completed += this.completeElement();
        }
        continue;
      }
      if (this.state === State.Type) {
        const kind = KIND_OF_BYTE[chunk[i]!]!;
        if (kind !== Kind.Inline || this.open.length > 0) {
          // Inside an aggregate every element has a type byte; an unknown one reads as an aggregate, as before.
          this.kind = kind === Kind.Inline ? Kind.Aggregate : kind;
          i++;
        } else {
          this.kind = Kind.Inline;
        }
        this.lineBytes = 0;
        this.lastWasCr = false;
        this.negative = false;
        this.digits = 0;
        this.value = 0;
        this.stopped = false;
        this.state = State.Line;
        continue;
      }
      if (this.kind === Kind.Simple || this.kind === Kind.Inline) {
        const newline = chunk.indexOf(LF, i);
        const end = newline === -1 ? length : newline;
        if (end > i) {
          this.lineBytes += end - i;
          this.lastWasCr = chunk[end - 1] === CR;
        }
        i = end;
        if (newline === -1) continue;
        i++;
        completed += this.endOfLine();
        continue;
      }
      for (; i < length; i++) {
        const byte = chunk[i]!;
        if (byte === LF) break;
        this.readLengthByte(byte);
      }
      if (i < length) {
        i++;
        completed += this.endOfLine();
      }
    }
    return completed;
  }

  private readLengthByte(byte: number): void {
    if (this.stopped) return;
    if (byte >= ZERO && byte <= ZERO + 9) {
      this.value = this.value * 10 + (byte - ZERO);
      this.digits++;
    } else if (byte === MINUS && this.digits === 0 && !this.negative) {
      this.negative = true;
    } else {
      this.stopped = true; // the CR, or whatever follows the number
    }
  }

  private endOfLine(): number {
    this.state = State.Type;
    switch (this.kind) {
      case Kind.Inline:
        return this.lineBytes - (this.lastWasCr ? 1 : 0) === 0 ? 0 : this.completeElement();
      case Kind.Simple:
        return this.completeElement();
      case Kind.Bulk: {
        const size = this.length();
        if (!(size >= 0)) return this.completeElement(); // null bulk string ($-1)
        this.bulkRemaining = size + 2; // payload and its CRLF
        this.state = State.Bulk;
        return 0;
      }
      default: {
        const size = this.length();
        const elements = this.kind === Kind.Map ? size * 2 : size;
        if (!(elements > 0)) return this.completeElement(); // null or empty aggregate
        this.open.push(elements);
        return 0;
      }
    }
  }

  /** The length line's number, NaN when it had no digits. */
  private length(): number {
    if (this.digits === 0) return NaN;
    return this.negative ? -this.value : this.value;
  }

  /** One element finished: close every aggregate it completes; 1 if a top-level message ended. */
  private completeElement(): number {
    while (this.open.length > 0) {
      const last = this.open.length - 1;
      this.open[last]! -= 1;
      if (this.open[last]! > 0) return 0;
      this.open.pop();
    }
    return 1;
  }
}
