// Counts complete RESP messages in a byte stream fed chunk by chunk, without keeping their contents.
// The socket probe runs one per direction: on what the client writes (requests: arrays of bulk
// strings, or inline commands such as "PING\r\n") and on what it receives (RESP2/RESP3 replies).
// This is how a probe knows that "this write carried 100 commands" or "this chunk completed 37
// replies" from the bytes themselves, independent of the client library.

const CR = 13;
const LF = 10;

const enum State {
  Type,
  Line,
  Bulk,
}

// RESP3 types are included so that a server speaking RESP3 is still counted correctly.
const SIMPLE_TYPES = new Set(['+', '-', ':', '_', ',', '#', '(']);
const BULK_TYPES = new Set(['$', '=', '!']);
const ARRAY_TYPES = new Set(['*', '~', '>']);
const MAP_TYPES = new Set(['%', '|']);

export class RespFrameCounter {
  private state = State.Type;
  private type = '';
  private line = '';
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
        // Inline commands have no type byte: the whole line is the message.
        const first = String.fromCharCode(chunk[i]!);
        const isTyped = SIMPLE_TYPES.has(first) || BULK_TYPES.has(first) || ARRAY_TYPES.has(first) || MAP_TYPES.has(first);
        if (isTyped || this.open.length > 0) {
          this.type = first;
          i++;
        } else {
          this.type = 'inline';
        }
        this.line = '';
        this.state = State.Line;
        continue;
      }
      const newline = chunk.indexOf(LF, i);
      const end = newline === -1 ? length : newline;
      this.line += latin1(chunk, i, end);
      i = newline === -1 ? length : newline + 1;
      if (newline !== -1) completed += this.endOfLine();
    }
    return completed;
  }

  private endOfLine(): number {
    const line = this.line.charCodeAt(this.line.length - 1) === CR ? this.line.slice(0, -1) : this.line;
    const type = this.type;
    this.state = State.Type;
    if (type === 'inline') return line.length === 0 ? 0 : this.completeElement();
    if (SIMPLE_TYPES.has(type)) return this.completeElement();
    const size = Number.parseInt(line, 10);
    if (BULK_TYPES.has(type)) {
      if (!(size >= 0)) return this.completeElement(); // null bulk string ($-1)
      this.bulkRemaining = size + 2; // payload and its CRLF
      this.state = State.Bulk;
      return 0;
    }
    const elements = MAP_TYPES.has(type) ? size * 2 : size;
    if (!(elements > 0)) return this.completeElement(); // null or empty aggregate
    this.open.push(elements);
    return 0;
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

function latin1(bytes: Uint8Array, start: number, end: number): string {
  let text = '';
  for (let i = start; i < end; i++) text += String.fromCharCode(bytes[i]!);
  return text;
}
