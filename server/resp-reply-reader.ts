// Reads RESP2 replies into values for the raw engine: simple strings, errors, integers, bulk strings,
// arrays. Bytes arrive in arbitrary chunks; complete replies come out in order.
export type RespValue = string | number | null | RespValue[] | RespError;

export class RespError {
  constructor(readonly message: string) {}
}

const INCOMPLETE = Symbol('incomplete');
type Parsed = { value: RespValue; end: number } | typeof INCOMPLETE;

export class RespReplyReader {
  private buffer: Buffer = Buffer.alloc(0);

  /** Appends a chunk; returns every reply it completed. */
  feed(chunk: Buffer): RespValue[] {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const values: RespValue[] = [];
    let offset = 0;
    for (;;) {
      const parsed = parseAt(this.buffer, offset);
      if (parsed === INCOMPLETE) break;
      values.push(parsed.value);
      offset = parsed.end;
    }
    this.buffer = this.buffer.subarray(offset);
    return values;
  }
}

function parseAt(buffer: Buffer, offset: number): Parsed {
  const lineEnd = buffer.indexOf('\r\n', offset);
  if (lineEnd === -1) return INCOMPLETE;
  const type = String.fromCharCode(buffer[offset]!);
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new RespError(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const size = Number(line);
      if (size < 0) return { value: null, end: next };
      if (buffer.length < next + size + 2) return INCOMPLETE;
      return { value: buffer.toString('utf8', next, next + size), end: next + size + 2 };
    }
    case '*': {
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let end = next;
      for (let i = 0; i < count; i++) {
        const item = parseAt(buffer, end);
        if (item === INCOMPLETE) return INCOMPLETE;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`Unexpected RESP type byte ${JSON.stringify(type)} in a reply`);
  }
}
