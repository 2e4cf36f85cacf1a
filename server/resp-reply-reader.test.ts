import { expect, it } from 'vitest';
import { RespError, RespReplyReader } from './resp-reply-reader.ts';

it('reads every RESP2 reply type, in order', () => {
  const reader = new RespReplyReader();
  const values = reader.feed(Buffer.from('+PONG\r\n:42\r\n$5\r\nhello\r\n$-1\r\n*2\r\n:1\r\n$1\r\nx\r\n*-1\r\n-ERR wrong type\r\n'));
  expect(values.slice(0, 6)).toEqual(['PONG', 42, 'hello', null, [1, 'x'], null]);
  expect(values[6]).toEqual(new RespError('ERR wrong type'));
});

it('waits for replies split across chunks at any byte', () => {
  const text = '+PONG\r\n$6\r\nab\r\ncd\r\n*2\r\n:1\r\n:2\r\n';
  for (let cut = 1; cut < text.length; cut++) {
    const reader = new RespReplyReader();
    const values = [...reader.feed(Buffer.from(text.slice(0, cut))), ...reader.feed(Buffer.from(text.slice(cut)))];
    expect(values).toEqual(['PONG', 'ab\r\ncd', [1, 2]]);
  }
});

it('refuses bytes that are not a RESP2 reply', () => {
  expect(() => new RespReplyReader().feed(Buffer.from('%1\r\n'))).toThrow('Unexpected RESP type byte "%" in a reply');
});
