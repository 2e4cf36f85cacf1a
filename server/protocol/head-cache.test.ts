import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../trace/format/escape-bytes.ts';
import { HEAD_BYTES } from '../../trace/format/trace-format.ts';
import { HeadCache } from './head-cache.ts';

describe('HeadCache', () => {
  it('writes each head as escapeBytes does, short or cut, text or binary', () => {
    const heads = new HeadCache();
    const chunks = [
      Buffer.from('+PONG\r\n'),
      Buffer.from('*1\r\n$4\r\nPING\r\n'.repeat(100)),
      Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256)),
      Buffer.alloc(HEAD_BYTES, 0x41),
      Buffer.alloc(HEAD_BYTES + 1, 0x41),
    ];
    for (const chunk of [...chunks, ...chunks]) expect(heads.of(chunk)).toBe(escapeBytes(chunk, HEAD_BYTES));
  });

  it('a chunk of exactly HEAD_BYTES and a longer one with the same first bytes get different heads', () => {
    const heads = new HeadCache();
    expect(heads.of(Buffer.alloc(HEAD_BYTES, 0x41))).not.toMatch(/…$/);
    expect(heads.of(Buffer.alloc(HEAD_BYTES + 10, 0x41))).toMatch(/…$/);
    expect(heads.of(Buffer.alloc(HEAD_BYTES, 0x41))).not.toMatch(/…$/);
  });
});
