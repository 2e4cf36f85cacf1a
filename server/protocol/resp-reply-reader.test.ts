import { expect, it } from 'vitest';
import { RespError, RespReplyReader, type RespValue } from './resp-reply-reader.ts';

/** Feeds the chunks in turn; every reply handed on, in order. */
function read(reader: RespReplyReader, ...chunks: string[]): RespValue[] {
  const values: RespValue[] = [];
  for (const chunk of chunks) {
    const before = values.length;
    const count = reader.feed(Buffer.from(chunk), (value) => values.push(value));
    expect(count).toBe(values.length - before);
  }
  return values;
}

it('reads every RESP2 reply type, in order', () => {
  const values = read(new RespReplyReader(), '+PONG\r\n:42\r\n:-7\r\n$5\r\nhello\r\n$-1\r\n*2\r\n:1\r\n$1\r\nx\r\n*-1\r\n-ERR wrong type\r\n$0\r\n\r\n*0\r\n');
  expect(values.slice(0, 7)).toEqual(['PONG', 42, -7, 'hello', null, [1, 'x'], null]);
  expect(values[7]).toEqual(new RespError('ERR wrong type'));
  expect(values.slice(8)).toEqual(['', []]);
});

it('waits for replies split across chunks at any byte', () => {
  const text = '+PONG\r\n$6\r\nab\r\ncd\r\n*2\r\n:1\r\n:2\r\n+PONG\r\n';
  for (let cut = 1; cut < text.length; cut++) {
    expect(read(new RespReplyReader(), text.slice(0, cut), text.slice(cut))).toEqual(['PONG', 'ab\r\ncd', [1, 2], 'PONG']);
  }
  // Byte by byte.
  expect(read(new RespReplyReader(), ...text.split(''))).toEqual(['PONG', 'ab\r\ncd', [1, 2], 'PONG']);
});

it('gives a repeated status reply as the same string, and a different one as itself', () => {
  const values = read(new RespReplyReader(), '+OK\r\n+OK\r\n+QUEUED\r\n+OK\r\n$2\r\nOK\r\n');
  expect(values).toEqual(['OK', 'OK', 'QUEUED', 'OK', 'OK']);
});

it('reads UTF-8 bulk strings by their byte length', () => {
  const text = 'héllo→';
  expect(read(new RespReplyReader(), `$${Buffer.byteLength(text)}\r\n${text}\r\n`)).toEqual([text]);
});

it('refuses bytes that are not a RESP2 reply', () => {
  expect(() => read(new RespReplyReader(), '%1\r\n')).toThrow('Unexpected RESP type byte "%" in a reply');
});
