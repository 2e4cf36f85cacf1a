// Reads what a client sends to Redis, chunk by chunk, into commands: RESP arrays of bulk strings
// (`*2\r\n$3\r\nGET\r\n$1\r\nk\r\n`) and inline commands (`PING\r\n`), as Redis itself reads them. The
// observing proxy (server/observe/) runs one per connection on bytes it does not produce, so it holds
// every limit Redis holds and refuses what Redis would refuse (a protocol error closes the connection
// there too). It keeps only the first ARG_KEEP_BYTES of each argument: a 500 MB value costs nothing here.
//
// Secrets never leave this file: once a command's name is known, the arguments that carry a password
// (command-secrets.ts) are replaced by "(redacted)" in the command's arguments, and the chunk's head of
// bytes (what the wire view shows) is masked wherever an argument of such a command, or of a command
// whose name is not known yet, lay. Nothing downstream ever sees those bytes.
//
// The common case is fast: a small command whole inside its chunk (a pipeline's PINGs, SETs of short
// values) is looked up by its bytes in a small cache of commands already parsed, and the parsed command
// (immutable) is handed on again; only what is new, long, split across chunks or secret takes the state
// machine. That keeps the port's cost per command well under a microsecond.
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { REDACTED, secretArguments } from './command-secrets.ts';
import { ByteKeyCache } from './byte-key-cache.ts';
import { HeadCache } from './head-cache.ts';

/** Bytes kept of each argument (the command text shows at most this much of any argument). */
export const ARG_KEEP_BYTES = 256;
/** Redis refuses inline requests longer than this (PROTO_INLINE_MAX_SIZE), closing the connection. */
export const MAX_INLINE_BYTES = 64 * 1024;
/** Arguments in one command at most (Redis: 1024 × 1024 × 1024; this keeps the parser's arrays small). */
export const MAX_ARGUMENTS = 1024 * 1024;

export interface ParsedCommand {
  /** Each argument's first ARG_KEEP_BYTES bytes, secrets already replaced by "(redacted)". Never changed once made: a cached command is handed on again. */
  readonly args: readonly Buffer[];
  /** Each argument's full length in bytes. */
  readonly argBytes: readonly number[];
  /** The command's bytes on the wire. */
  readonly bytes: number;
  readonly inline: boolean;
  /** The command's name, lower-cased ("set"; "" for none). */
  readonly name: string;
  /** Whether any argument was a secret (replaced). */
  readonly secret: boolean;
  /** The command's text, once someone has written it (command-text.ts keeps it here). */
  text?: string;
}

/** Commands up to this many bytes are looked up by their bytes. */
const CACHED_COMMAND_BYTES = 256;
/** At most this many distinct commands are kept (the cache starts afresh beyond). */
const CACHED_COMMANDS = 4096;

export interface ParsedChunk {
  commands: ParsedCommand[];
  /** The chunk's first HEAD_BYTES bytes, escaped, secrets masked. */
  head: string;
  /** Set when the bytes are not a Redis request: the connection must be closed (Redis would close it too). */
  error?: string;
}

export interface RequestLimits {
  /** A bulk argument longer than this is refused (bytes). */
  maxBulkBytes: number;
}

const CR = 13;
const LF = 10;
const STAR = 42;
const DOLLAR = 36;

const enum State {
  Start,
  InlineLine,
  ArrayHeader,
  BulkHeader,
  BulkPayload,
  BulkEnd,
}

/** A command being read: its arguments so far, and the spans of this chunk that belong to it. */
interface Pending {
  args: Buffer[];
  argBytes: number[];
  expected: number;
  bytes: number;
  inline: boolean;
}

export class RespRequestParser {
  private state = State.Start;
  private line: number[] = [];
  private inlineBytes: Buffer[] = [];
  private inlineLength = 0;
  private pending: Pending | null = null;
  private bulkRemaining = 0;
  private bulkLength = 0;
  private bulkKept: Buffer[] = [];
  private bulkKeptLength = 0;
  private failed: string | null = null;
  private readonly cache = new ByteKeyCache<ParsedCommand>(CACHED_COMMANDS);
  private readonly heads = new HeadCache();

  constructor(private readonly limits: RequestLimits) {}

  /** Parses one chunk. After an error, every later call returns the same error. */
  feed(chunk: Buffer): ParsedChunk {
    const commands: ParsedCommand[] = [];
    // Where, in this chunk, each argument (or inline line) lay, with the command it belongs to: for the head.
    const spans: Span[] = [];
    if (this.failed) return { commands, head: '', error: this.failed };
    let i = 0;
    let error: string | undefined;
    while (i < chunk.length && !error) {
      if (this.state === State.Start) {
        // The same command as the last one looked up (a pipeline of one command): compared in place.
        const repeat = this.cache.repeatAt(chunk, i);
        if (repeat !== -1) {
          commands.push(this.cache.lastValue);
          i = repeat;
          continue;
        }
        const end = wholeCommandEnd(chunk, i);
        if (end !== -1) {
          const cached = this.cache.get(chunk, i, end);
          if (cached) {
            commands.push(cached);
            i = end;
            continue;
          }
          // New: the state machine reads it alone, and it is kept for next time unless it held a secret.
          const before = commands.length;
          error = this.parse(chunk.subarray(i, end), commands, spans, i);
          const parsed = commands[before];
          if (!error && parsed && commands.length === before + 1 && !parsed.secret && this.state === State.Start) {
            this.cache.set(chunk, i, end, parsed);
          }
          i = end;
          continue;
        }
      }
      // Split across chunks, long, or not yet at a command's start: the state machine reads the rest.
      error = this.parse(chunk.subarray(i), commands, spans, i);
      break;
    }
    if (error) this.failed = error;
    return { commands, head: maskedHead(chunk, spans, this.heads), ...(error ? { error } : {}) };
  }

  /** Runs the state machine over `chunk` (which starts at `base` in the chunk fed), recording spans at their place there. */
  private parse(chunk: Buffer, out: ParsedCommand[], spans: Span[], base: number): string | undefined {
    const start = spans.length;
    const error = this.parseFrom(chunk, out, spans);
    if (base) for (let k = start; k < spans.length; k++) {
      spans[k]!.start += base;
      spans[k]!.end += base;
    }
    return error;
  }

  private parseFrom(chunk: Buffer, out: ParsedCommand[], spans: Span[]): string | undefined {
    let i = 0;
    const length = chunk.length;
    while (i < length) {
      switch (this.state) {
        case State.Start: {
          this.pending = { args: [], argBytes: [], expected: 0, bytes: 0, inline: chunk[i] !== STAR };
          if (chunk[i] === STAR) {
            this.state = State.ArrayHeader;
            this.line = [];
            this.pending.bytes++;
            i++;
          } else {
            this.state = State.InlineLine;
            this.inlineBytes = [];
            this.inlineLength = 0;
          }
          break;
        }
        case State.InlineLine: {
          const newline = chunk.indexOf(LF, i);
          const end = newline === -1 ? length : newline + 1;
          spans.push({ start: i, end, owner: this.pending!, arg: -1 });
          this.inlineBytes.push(chunk.subarray(i, end));
          this.inlineLength += end - i;
          this.pending!.bytes += end - i;
          i = end;
          if (this.inlineLength > MAX_INLINE_BYTES) return `Protocol error: an inline request longer than ${MAX_INLINE_BYTES / 1024} KiB (Redis closes such a connection too)`;
          if (newline === -1) break;
          const text = Buffer.concat(this.inlineBytes, this.inlineLength);
          const split = splitInline(text.subarray(0, text.length - (text.length >= 2 && text[text.length - 2] === CR ? 2 : 1)));
          if (split === null) return 'Protocol error: unbalanced quotes in an inline request';
          this.state = State.Start;
          if (split.length === 0) break; // an empty line: Redis skips it, no reply
          const pending = this.pending!;
          pending.args = split.map((arg) => arg.subarray(0, ARG_KEEP_BYTES));
          pending.argBytes = split.map((arg) => arg.length);
          out.push(this.complete(pending));
          break;
        }
        case State.ArrayHeader:
        case State.BulkHeader: {
          const newline = chunk.indexOf(LF, i);
          const end = newline === -1 ? length : newline;
          for (let k = i; k < end; k++) this.line.push(chunk[k]!);
          if (this.line.length > 32) return 'Protocol error: a length line longer than 32 bytes';
          this.pending!.bytes += (newline === -1 ? end : end + 1) - i;
          if (this.state === State.BulkHeader) spans.push({ start: i, end: newline === -1 ? end : end + 1, owner: this.pending!, arg: this.pending!.args.length });
          i = newline === -1 ? end : end + 1;
          if (newline === -1) break;
          const text = String.fromCharCode(...this.line).replace(/\r$/, '');
          this.line = [];
          if (this.state === State.ArrayHeader) {
            const count = /^-?\d+$/.test(text) ? Number(text) : NaN;
            if (!Number.isSafeInteger(count) || count > MAX_ARGUMENTS) return `Protocol error: invalid multibulk length "${text.slice(0, 20)}"`;
            if (count <= 0) {
              this.state = State.Start; // *0 and *-1: Redis reads them as nothing
              break;
            }
            this.pending!.expected = count;
            this.state = State.BulkHeader;
            // The next byte must be '$': checked when it comes.
            break;
          }
          if (!text.startsWith('$')) return `Protocol error: expected '$', got '${text.slice(0, 1) || '\\r'}'`;
          const size = /^\$\d+$/.test(text) ? Number(text.slice(1)) : NaN;
          if (!Number.isSafeInteger(size)) return `Protocol error: invalid bulk length "${text.slice(1, 21)}"`;
          if (size > this.limits.maxBulkBytes) {
            return `an argument of ${size.toLocaleString('en-US')} bytes is longer than the observing limit of ${this.limits.maxBulkBytes.toLocaleString('en-US')} bytes`;
          }
          this.bulkLength = size;
          this.bulkRemaining = size;
          this.bulkKept = [];
          this.bulkKeptLength = 0;
          this.state = size === 0 ? State.BulkEnd : State.BulkPayload;
          break;
        }
        case State.BulkPayload: {
          const take = Math.min(this.bulkRemaining, length - i);
          const keep = Math.min(take, ARG_KEEP_BYTES - this.bulkKeptLength);
          if (keep > 0) {
            this.bulkKept.push(Buffer.from(chunk.subarray(i, i + keep)));
            this.bulkKeptLength += keep;
          }
          spans.push({ start: i, end: i + take, owner: this.pending!, arg: this.pending!.args.length });
          this.pending!.bytes += take;
          this.bulkRemaining -= take;
          i += take;
          if (this.bulkRemaining === 0) {
            this.state = State.BulkEnd;
            this.line = [];
          }
          break;
        }
        case State.BulkEnd: {
          // The CRLF after the payload (Redis requires exactly these two bytes).
          const byte = chunk[i]!;
          this.line.push(byte);
          this.pending!.bytes++;
          spans.push({ start: i, end: i + 1, owner: this.pending!, arg: this.pending!.args.length });
          i++;
          if (this.line.length === 1 && byte !== CR) return 'Protocol error: a bulk argument not followed by CRLF';
          if (this.line.length < 2) break;
          if (byte !== LF) return 'Protocol error: a bulk argument not followed by CRLF';
          const pending = this.pending!;
          pending.args.push(Buffer.concat(this.bulkKept, this.bulkKeptLength));
          pending.argBytes.push(this.bulkLength);
          this.line = [];
          if (pending.args.length === pending.expected) {
            out.push(this.complete(pending));
            this.state = State.Start;
          } else {
            this.state = State.BulkHeader;
          }
          break;
        }
      }
      // A '$' is expected at the start of each bulk header.
      if (this.state === State.BulkHeader && this.line.length === 1 && this.line[0] !== DOLLAR) {
        return `Protocol error: expected '$', got '${String.fromCharCode(this.line[0]!)}'`;
      }
    }
    return undefined;
  }

  /** The finished command, its secrets replaced. */
  private complete(pending: Pending): ParsedCommand {
    const secrets = secretArguments(pending.args);
    for (const index of secrets) pending.args[index] = Buffer.from(REDACTED);
    this.pending = null;
    const name = pending.args[0]?.toString('latin1').toLowerCase() ?? '';
    return { args: pending.args, argBytes: pending.argBytes, bytes: pending.bytes, inline: pending.inline, name, secret: secrets.length > 0 };
  }
}

interface Span {
  start: number;
  end: number;
  owner: Pending;
  arg: number;
}

/**
 * Where the command starting at `i` ends, when the whole of it is in the chunk and it is at most
 * CACHED_COMMAND_BYTES long; -1 otherwise (split, long, or malformed: the state machine says which).
 * Reads lengths digit by digit; allocates nothing.
 */
function wholeCommandEnd(chunk: Buffer, i: number): number {
  const limit = Math.min(chunk.length, i + CACHED_COMMAND_BYTES);
  if (chunk[i] !== STAR) {
    // An inline command: its line, CRLF or LF ended. An empty line is left to the state machine.
    const newline = chunk.indexOf(LF, i);
    return newline === -1 || newline >= limit || newline === i || (newline === i + 1 && chunk[i] === CR) ? -1 : newline + 1;
  }
  let at = i + 1;
  let count = 0;
  let digits = 0;
  while (at < limit && chunk[at]! >= 48 && chunk[at]! <= 57) {
    count = count * 10 + chunk[at]! - 48;
    at++;
    digits++;
  }
  if (digits === 0 || count === 0 || chunk[at] !== CR || chunk[at + 1] !== LF) return -1;
  at += 2;
  for (let k = 0; k < count; k++) {
    if (chunk[at] !== DOLLAR) return -1;
    at++;
    let size = 0;
    digits = 0;
    while (at < limit && chunk[at]! >= 48 && chunk[at]! <= 57) {
      size = size * 10 + chunk[at]! - 48;
      at++;
      digits++;
    }
    if (digits === 0 || chunk[at] !== CR || chunk[at + 1] !== LF) return -1;
    at += 2 + size;
    if (at + 2 > limit || chunk[at] !== CR || chunk[at + 1] !== LF) return -1;
    at += 2;
  }
  return at;
}

/**
 * The chunk's first HEAD_BYTES bytes, escaped, every argument that may be a secret shown as "(redacted)":
 * an argument that secretArguments names once its command is known, and every argument but the name of
 * a command still being read (its name may turn out to be AUTH).
 */
function maskedHead(chunk: Buffer, spans: readonly Span[], heads: HeadCache): string {
  const masked: [number, number][] = [];
  for (const span of spans) {
    if (span.start >= HEAD_BYTES) break;
    if (isSecretSpan(span.owner, span.arg)) masked.push([span.start, Math.min(span.end, HEAD_BYTES)]);
  }
  if (masked.length === 0) return heads.of(chunk);
  let text = '';
  let at = 0;
  for (const [start, end] of masked) {
    if (start > at) text += escapeBytes(chunk.subarray(at, start), HEAD_BYTES);
    if (!text.endsWith(REDACTED)) text += REDACTED;
    at = Math.max(at, end);
  }
  if (at < Math.min(chunk.length, HEAD_BYTES)) text += escapeBytes(chunk.subarray(at, HEAD_BYTES), HEAD_BYTES);
  return chunk.length > HEAD_BYTES ? `${text}…` : text;
}

/** An argument of a command that may carry a secret is masked, whichever it is (the head is a glimpse, not the record). */
function isSecretSpan(owner: Pending, arg: number): boolean {
  // An inline line cut by the chunk's end has no arguments yet: its name is unknown, so it is masked.
  if (arg === -1) return owner.args.length === 0 || secretArguments(owner.args, true).length > 0;
  if (arg === 0) return false; // the command's name
  return owner.args.length === 0 || secretArguments(owner.args, true).length > 0;
}

/**
 * An inline request split as Redis splits it (sdssplitargs): on spaces and tabs, "double quotes" with
 * \\n \\r \\t \\xHH escapes and 'single quotes'; null for unbalanced quotes.
 */
export function splitInline(line: Buffer): Buffer[] | null {
  const text = line.toString('latin1');
  const args: Buffer[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let current = '';
    let quote: '"' | "'" | null = null;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (quote === '"') {
        if (c === '\\' && i + 1 < text.length) {
          const next = text[++i]!;
          if (next === 'x' && /^[0-9a-fA-F]{2}$/.test(text.slice(i + 1, i + 3))) {
            current += String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16));
            i += 2;
          } else current += next === 'n' ? '\n' : next === 'r' ? '\r' : next === 't' ? '\t' : next === 'b' ? '\b' : next === 'a' ? '\x07' : next;
        } else if (c === '"') {
          if (i + 1 < text.length && !/\s/.test(text[i + 1]!)) return null;
          quote = null;
          i++;
          break;
        } else current += c;
      } else if (quote === "'") {
        if (c === '\\' && text[i + 1] === "'") {
          current += "'";
          i++;
        } else if (c === "'") {
          if (i + 1 < text.length && !/\s/.test(text[i + 1]!)) return null;
          quote = null;
          i++;
          break;
        } else current += c;
      } else if (/\s/.test(c)) break;
      else if ((c === '"' || c === "'") && current === '') quote = c;
      else current += c;
    }
    if (quote) return null;
    args.push(Buffer.from(current, 'latin1'));
  }
  return args;
}
