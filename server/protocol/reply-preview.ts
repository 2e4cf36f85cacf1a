// Turns a reply from the client library into the short value a trace stores: numbers and short
// strings as they are, long strings cut to REPLY_PREVIEW_CHARS with their full size noted.
import { REPLY_PREVIEW_CHARS, type ReplyValue } from '../../trace/format/trace-format.ts';

export function previewReply(value: unknown): ReplyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const text = Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : JSON.stringify(plainReply(value));
  if (text.length <= REPLY_PREVIEW_CHARS) return text;
  return `${text.slice(0, REPLY_PREVIEW_CHARS)}… (${Buffer.byteLength(text)} bytes)`;
}

/**
 * A reply array (EXEC's, MGET's, a script's) as JSON-ready values, the same whichever engine read it:
 * strings (Buffers decoded as UTF-8), numbers, null, arrays, and an error element (ioredis's
 * ReplyError, the raw reader's RespError) as {"error": message}.
 */
function plainReply(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainReply);
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (value instanceof Error) return { error: value.message };
  if (value !== null && typeof value === 'object' && typeof (value as { message?: unknown }).message === 'string') {
    return { error: (value as { message: string }).message };
  }
  return value ?? null;
}
