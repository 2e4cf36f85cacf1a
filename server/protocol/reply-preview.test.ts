import { describe, expect, it } from 'vitest';
import { REPLY_PREVIEW_CHARS } from '../../trace/format/trace-format.ts';
import { previewReply } from './reply-preview.ts';

describe('previewReply', () => {
  it('keeps numbers and short strings as they are', () => {
    expect(previewReply(42)).toBe(42);
    expect(previewReply(0)).toBe(0);
    expect(previewReply('PONG')).toBe('PONG');
    expect(previewReply('')).toBe('');
  });

  it('turns null and undefined into null', () => {
    expect(previewReply(null)).toBeNull();
    expect(previewReply(undefined)).toBeNull();
  });

  it('decodes Buffers as UTF-8', () => {
    expect(previewReply(Buffer.from('pipescope-pip'))).toBe('pipescope-pip');
  });

  it('keeps a string of exactly the preview length whole', () => {
    const text = 'x'.repeat(REPLY_PREVIEW_CHARS);
    expect(previewReply(text)).toBe(text);
  });

  it('cuts a longer string to the preview length and notes its full size in bytes', () => {
    expect(REPLY_PREVIEW_CHARS).toBe(64);
    expect(previewReply('x'.repeat(65))).toBe(`${'x'.repeat(64)}… (65 bytes)`);
    const value = Buffer.from('pipescope-'.repeat(1000));
    expect(previewReply(value)).toBe(`${'pipescope-'.repeat(7).slice(0, 64)}… (10000 bytes)`);
  });

  it('counts bytes, not characters, for multi-byte text', () => {
    expect(previewReply('é'.repeat(100))).toBe(`${'é'.repeat(64)}… (200 bytes)`);
  });

  it('shows other values as JSON', () => {
    expect(previewReply(['a', 1])).toBe('["a",1]');
    expect(previewReply(true)).toBe('true');
  });
});

describe('previewReply of arrays', () => {
  it('shows an EXEC array with its error element as JSON, the same for both engines', () => {
    class RespLikeError {
      constructor(readonly message: string) {}
    }
    expect(previewReply([1, new Error('ERR value is not an integer or out of range'), 3])).toBe('[1,{"error":"ERR value is not an integer or out of range"},3]');
    expect(previewReply([1, new RespLikeError('ERR x')])).toBe('[1,{"error":"ERR x"}]');
    expect(previewReply([Buffer.from('a'), null, ['b']])).toBe('["a",null,["b"]]');
  });
});
