// Turns a reply from the client library into the short value a trace stores: numbers and short
// strings as they are, long strings cut to REPLY_PREVIEW_CHARS with their full size noted.
import { REPLY_PREVIEW_CHARS, type ReplyValue } from '../../trace/trace-format.ts';

export function previewReply(value: unknown): ReplyValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return value;
  const text = Buffer.isBuffer(value) ? value.toString('utf8') : typeof value === 'string' ? value : JSON.stringify(value);
  if (text.length <= REPLY_PREVIEW_CHARS) return text;
  return `${text.slice(0, REPLY_PREVIEW_CHARS)}… (${Buffer.byteLength(text)} bytes)`;
}
