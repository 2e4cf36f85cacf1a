import { describe, expect, it } from 'vitest';
import { RespReplyParser, frameText } from './resp-reply-parser.ts';

function frames(bytes: string, cut?: number) {
  const parser = new RespReplyParser();
  const parts = cut === undefined ? [bytes] : [bytes.slice(0, cut), bytes.slice(cut)];
  return parts.flatMap((part) => parser.feed(Buffer.from(part, 'latin1')).frames);
}

describe('RespReplyParser', () => {
  it('reads RESP2 and RESP3 frames, split anywhere, with their sizes', () => {
    const bytes = '+OK\r\n-ERR no\r\n:42\r\n$5\r\nhello\r\n$-1\r\n*2\r\n$1\r\na\r\n:1\r\n%1\r\n+k\r\n,1.5\r\n~1\r\n#t\r\n_\r\n=8\r\ntxt:abcd\r\n(123\r\n>3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n|1\r\n+ttl\r\n:3\r\n+after-attribute\r\n';
    const expected = ['OK', '{"error":"ERR no"}', '42', 'hello', 'null', '["a",1]', '{"k":"1.5"}', '["true"]', 'null', 'abcd', '123', '["message","ch","hi"]', 'after-attribute'];
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = frames(bytes, cut);
      expect(got.map((f) => frameText(f.value, 100))).toEqual(expected);
      expect(got.map((f) => f.push)).toEqual(expected.map((_, i) => i === 11));
    }
    expect(frames(bytes).reduce((sum, f) => sum + f.bytes, 0)).toBe(bytes.length);
  });

  it('replies repeated, then others, read the same wherever the chunk is cut', () => {
    const bytes = '+PONG\r\n'.repeat(4) + '+PONGS\r\n' + '$4\r\nPONG\r\n'.repeat(3) + '+PONG\r\n'.repeat(2) + '*1\r\n+PONG\r\n';
    const expected = [...Array(4).fill('PONG'), 'PONGS', ...Array(5).fill('PONG'), '["PONG"]'];
    for (let cut = 0; cut <= bytes.length; cut++) {
      const got = frames(bytes, cut);
      expect(got.map((f) => frameText(f.value, 100))).toEqual(expected);
      expect(got.reduce((sum, f) => sum + f.bytes, 0)).toBe(bytes.length);
    }
  });

  it('keeps a preview of a big value, not the value', () => {
    const big = 'v'.repeat(100_000);
    const [frame] = frames(`$${big.length}\r\n${big}\r\n`, 50_000);
    expect(frame!.bytes).toBe(big.length + 11);
    expect(frameText(frame!.value, 64)).toMatch(/^v{64}…$/);
  });

  it('says so when the bytes are not RESP', () => {
    expect(new RespReplyParser().feed(Buffer.from('hello\r\n')).error).toMatch(/unexpected type byte 0x68/);
  });
});
