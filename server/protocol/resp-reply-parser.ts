// Reads what Redis sends a client, chunk by chunk, into top-level frames: RESP2 and RESP3 (maps, sets,
// doubles, booleans, big numbers, verbatim strings, nulls, attributes, and push frames, which answer no
// command). Unlike the raw engine's reply reader it never holds a whole value: each string keeps its
// first PREVIEW_KEEP_BYTES and each aggregate its first PREVIEW_KEEP_ITEMS elements, enough for a
// preview, so a 100 MB GET costs nothing here. An attribute (`|`) is not a frame of its own: it is
// folded into the frame it describes.
//
// As with requests (resp-request-parser.ts), a small frame whole in its chunk (+OK, +PONG, :1, a short
// bulk) is looked up by its bytes among the frames already read, and handed on again (frames are never
// changed; a recorder may note its outcome on it once).

import type { Outcome } from '../../trace/format/trace-builder.ts';
import { REPLY_PREVIEW_CHARS, type ReplyValue } from '../../trace/format/trace-format.ts';
import { ByteKeyCache } from './byte-key-cache.ts';

/** A frame, shortened: strings cut, aggregates cut, with their true sizes. */
export type FrameValue =
  | { kind: 'string'; text: string; bytes: number }
  | { kind: 'error'; text: string }
  | { kind: 'number'; value: number | string }
  | { kind: 'null' }
  | { kind: 'aggregate'; type: 'array' | 'set' | 'map' | 'push'; count: number; items: FrameValue[] };

export interface ReplyFrame {
  readonly value: FrameValue;
  /** The frame's bytes on the wire (its attribute included). */
  readonly bytes: number;
  /** A RESP3 push frame (`>`): out of band, never the reply to a command. */
  readonly push: boolean;
  /** What a recorder made of it, kept so that the same frame again costs nothing. */
  outcome?: Outcome;
}

/** Frames up to this many bytes are looked up by their bytes. */
const CACHED_FRAME_BYTES = 64;
const CACHED_FRAMES = 4096;

export const PREVIEW_KEEP_BYTES = 128;
export const PREVIEW_KEEP_ITEMS = 16;
/** A length or simple line from Redis longer than this is kept only in part (bytes). */
const MAX_LINE_KEEP = 512;

const LF = 10;
const CR = 13;

interface Open {
  type: 'array' | 'set' | 'map' | 'push' | 'attribute';
  remaining: number;
  count: number;
  items: FrameValue[];
}

const enum State {
  Type,
  Line,
  Payload,
  PayloadEnd,
}

export class RespReplyParser {
  private state = State.Type;
  private type = 0;
  private line: number[] = [];
  private lineBytes = 0;
  private payloadRemaining = 0;
  private payloadLength = 0;
  private payload: Buffer[] = [];
  private payloadKept = 0;
  private endBytes = 0;
  private readonly open: Open[] = [];
  /** Bytes of the frame being read so far. */
  private frameBytes = 0;
  private failed: string | null = null;
  private readonly cache = new ByteKeyCache<ReplyFrame>(CACHED_FRAMES);

  /** Parses one chunk; returns the frames it completed, in order, or the first protocol error. */
  feed(chunk: Buffer): { frames: ReplyFrame[]; error?: string } {
    const frames: ReplyFrame[] = [];
    if (this.failed) return { frames, error: this.failed };
    let i = 0;
    while (i < chunk.length) {
      // The same frame as the last one looked up (+PONG after +PONG): compared in place.
      const repeat = this.atBoundary ? this.cache.repeatAt(chunk, i) : -1;
      if (repeat !== -1) {
        frames.push(this.cache.lastValue);
        i = repeat;
        continue;
      }
      const end = this.atBoundary ? smallFrameEnd(chunk, i) : -1;
      if (end === -1) return this.slow(chunk.subarray(i), frames);
      const cached = this.cache.get(chunk, i, end);
      if (cached) frames.push(cached);
      else {
        const before = frames.length;
        const result = this.slow(chunk.subarray(i, end), frames);
        if (result.error) return result;
        if (frames.length === before + 1) this.cache.set(chunk, i, end, frames[before]!);
      }
      i = end;
    }
    return { frames };
  }

  /** The state machine, over the whole of `chunk`. */
  private slow(chunk: Buffer, frames: ReplyFrame[]): { frames: ReplyFrame[]; error?: string } {
    let i = 0;
    const length = chunk.length;
    while (i < length) {
      if (this.state === State.Type) {
        this.type = chunk[i]!;
        if (!TYPES.has(this.type)) return this.fail(frames, `Protocol error from Redis: unexpected type byte 0x${this.type.toString(16)}`);
        this.state = State.Line;
        this.line = [];
        this.lineBytes = 0;
        this.frameBytes++;
        i++;
        continue;
      }
      if (this.state === State.Line) {
        const newline = chunk.indexOf(LF, i);
        const end = newline === -1 ? length : newline;
        for (let k = i; k < end && this.line.length < MAX_LINE_KEEP; k++) this.line.push(chunk[k]!);
        this.lineBytes += end - i;
        const consumed = (newline === -1 ? end : end + 1) - i;
        this.frameBytes += consumed;
        i += consumed;
        if (newline === -1) continue;
        if (this.line.at(-1) === CR) {
          this.line.pop();
          this.lineBytes--;
        }
        const error = this.endOfLine(frames);
        if (error) return this.fail(frames, error);
        continue;
      }
      if (this.state === State.Payload) {
        const take = Math.min(this.payloadRemaining, length - i);
        const keep = Math.min(take, PREVIEW_KEEP_BYTES - this.payloadKept);
        if (keep > 0) {
          this.payload.push(Buffer.from(chunk.subarray(i, i + keep)));
          this.payloadKept += keep;
        }
        this.payloadRemaining -= take;
        this.frameBytes += take;
        i += take;
        if (this.payloadRemaining === 0) {
          this.state = State.PayloadEnd;
          this.endBytes = 0;
        }
        continue;
      }
      // PayloadEnd: the CRLF after a bulk payload.
      this.endBytes++;
      this.frameBytes++;
      i++;
      if (this.endBytes < 2) continue;
      this.state = State.Type;
      const text = Buffer.concat(this.payload, this.payloadKept).toString('utf8');
      const value: FrameValue = this.type === BANG
        ? { kind: 'error', text }
        : { kind: 'string', text: this.type === EQUALS ? text.slice(4) : text, bytes: this.payloadLength };
      this.element(value, frames);
    }
    return { frames };
  }

  /** True between frames. */
  get atBoundary(): boolean {
    return this.state === State.Type && this.open.length === 0;
  }

  private fail(frames: ReplyFrame[], error: string): { frames: ReplyFrame[]; error: string } {
    this.failed = error;
    return { frames, error };
  }

  private endOfLine(frames: ReplyFrame[]): string | undefined {
    const text = String.fromCharCode(...this.line);
    this.state = State.Type;
    switch (this.type) {
      case PLUS:
        this.element({ kind: 'string', text: this.lineBytes > MAX_LINE_KEEP ? utf8(this.line) + '…' : utf8(this.line), bytes: this.lineBytes }, frames);
        return;
      case MINUS:
        this.element({ kind: 'error', text: utf8(this.line) }, frames);
        return;
      case COLON:
      case COMMA:
      case LPAREN:
        this.element({ kind: 'number', value: this.type === COLON && /^-?\d{1,15}$/.test(text) ? Number(text) : text }, frames);
        return;
      case HASH:
        this.element({ kind: 'number', value: text === 't' ? 'true' : 'false' }, frames);
        return;
      case UNDERSCORE:
        this.element({ kind: 'null' }, frames);
        return;
      case DOLLAR:
      case EQUALS:
      case BANG: {
        const size = /^-?\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isSafeInteger(size)) return `Protocol error from Redis: bad bulk length "${text.slice(0, 20)}"`;
        if (size < 0) {
          this.element({ kind: 'null' }, frames);
          return;
        }
        this.payloadLength = size;
        this.payloadRemaining = size;
        this.payload = [];
        this.payloadKept = 0;
        this.state = size === 0 ? State.PayloadEnd : State.Payload;
        this.endBytes = 0;
        return;
      }
      default: {
        const size = /^-?\d+$/.test(text) ? Number(text) : NaN;
        if (!Number.isSafeInteger(size)) return `Protocol error from Redis: bad aggregate length "${text.slice(0, 20)}"`;
        const type = AGGREGATES.get(this.type)!;
        if (size < 0) {
          this.element({ kind: 'null' }, frames);
          return;
        }
        const elements = type === 'map' || type === 'attribute' ? size * 2 : size;
        const open: Open = { type, remaining: elements, count: size, items: [] };
        if (elements === 0) {
          this.closeAggregate(open, frames);
          return;
        }
        this.open.push(open);
        return;
      }
    }
  }

  private closeAggregate(open: Open, frames: ReplyFrame[]): void {
    if (open.type === 'attribute') return; // describes the next element; not an element itself
    this.element({ kind: 'aggregate', type: open.type, count: open.count, items: open.items }, frames);
  }

  /** One element done: into its aggregate, or a frame of its own at the top. */
  private element(value: FrameValue, frames: ReplyFrame[]): void {
    const parent = this.open.at(-1);
    if (!parent) {
      frames.push({ value, bytes: this.frameBytes, push: value.kind === 'aggregate' && value.type === 'push' });
      this.frameBytes = 0;
      return;
    }
    if (parent.items.length < PREVIEW_KEEP_ITEMS) parent.items.push(value);
    parent.remaining--;
    if (parent.remaining > 0) return;
    this.open.pop();
    this.closeAggregate(parent, frames);
  }
}

/**
 * Where the frame starting at `i` ends when it is a simple line (+ - :) or a bulk string ($) whole in
 * the chunk and at most CACHED_FRAME_BYTES long; -1 otherwise. Allocates nothing.
 */
function smallFrameEnd(chunk: Buffer, i: number): number {
  const type = chunk[i];
  const limit = Math.min(chunk.length, i + CACHED_FRAME_BYTES);
  if (type === PLUS || type === MINUS || type === COLON) {
    const newline = chunk.indexOf(LF, i);
    return newline === -1 || newline >= limit || chunk[newline - 1] !== CR ? -1 : newline + 1;
  }
  if (type !== DOLLAR) return -1;
  let at = i + 1;
  let size = 0;
  while (at < limit && chunk[at]! >= 48 && chunk[at]! <= 57) size = size * 10 + chunk[at++]! - 48;
  if (at === i + 1 || chunk[at] !== CR || chunk[at + 1] !== LF) return -1;
  const end = at + 2 + size + 2;
  return end <= limit && chunk[end - 2] === CR && chunk[end - 1] === LF ? end : -1;
}

const PLUS = 43, MINUS = 45, COLON = 58, DOLLAR = 36, STAR = 42, UNDERSCORE = 95, COMMA = 44, HASH = 35, LPAREN = 40;
const EQUALS = 61, BANG = 33, PERCENT = 37, TILDE = 126, GT = 62, PIPE = 124;
const TYPES = new Set([PLUS, MINUS, COLON, DOLLAR, STAR, UNDERSCORE, COMMA, HASH, LPAREN, EQUALS, BANG, PERCENT, TILDE, GT, PIPE]);
const AGGREGATES = new Map<number, Open['type']>([[STAR, 'array'], [TILDE, 'set'], [PERCENT, 'map'], [GT, 'push'], [PIPE, 'attribute']]);

function utf8(bytes: number[]): string {
  return Buffer.from(bytes).toString('utf8');
}

/** A frame as one line: PONG, 11, (nil), ["subscribe","ch",1], {"a":"1"}; cut after `limit` characters. */
export function frameText(value: FrameValue, limit: number): string {
  const text = JSON.stringify(plain(value));
  const simple = value.kind === 'string' ? value.text : value.kind === 'number' ? String(value.value) : text;
  return simple.length > limit ? `${simple.slice(0, limit)}…` : simple;
}

function plain(value: FrameValue): unknown {
  switch (value.kind) {
    case 'string':
      return value.bytes > value.text.length ? `${value.text}… (${value.bytes} bytes)` : value.text;
    case 'error':
      return { error: value.text };
    case 'number':
      return value.value;
    case 'null':
      return null;
    case 'aggregate': {
      const more = value.count - (value.type === 'map' ? value.items.length / 2 : value.items.length);
      if (value.type === 'map') {
        const entries: Record<string, unknown> = {};
        for (let k = 0; k + 1 < value.items.length; k += 2) entries[String(plain(value.items[k]!))] = plain(value.items[k + 1]!);
        if (more > 0) entries['…'] = `${more} more`;
        return entries;
      }
      const items = value.items.map(plain);
      if (more > 0) items.push(`… ${more} more`);
      return items;
    }
  }
}

/** A frame as the trace stores a reply: strings, numbers and null as they are; aggregates as a short JSON text; errors. */
export function frameOutcome(value: FrameValue): Outcome {
  if (value.kind === 'error') return { error: value.text };
  return { reply: previewValue(value) };
}

function previewValue(value: FrameValue): ReplyValue {
  if (value.kind === 'null') return null;
  if (value.kind === 'number') return typeof value.value === 'number' ? value.value : value.value;
  const text = frameText(value, REPLY_PREVIEW_CHARS);
  if (value.kind === 'string' && value.bytes > REPLY_PREVIEW_CHARS) return `${value.text.slice(0, REPLY_PREVIEW_CHARS)}… (${value.bytes} bytes)`;
  return text;
}
