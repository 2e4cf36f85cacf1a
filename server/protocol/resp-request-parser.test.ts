import { describe, expect, it } from 'vitest';
import { RespRequestParser, splitInline } from './resp-request-parser.ts';

const limits = { maxBulkBytes: 1024 };
const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`;
const texts = (commands: readonly { args: readonly Buffer[] }[]) => commands.map((c) => c.args.map((a) => a.toString()).join(' '));

/** Feeds `bytes` split at each of `cuts`; returns every command and head. */
function feedSplit(bytes: string, cuts: number[]) {
  const parser = new RespRequestParser(limits);
  const points = [0, ...cuts, bytes.length];
  const chunks = points.slice(1).map((end, i) => parser.feed(Buffer.from(bytes.slice(points[i], end), 'latin1')));
  return { commands: chunks.flatMap((c) => c.commands), heads: chunks.map((c) => c.head), errors: chunks.map((c) => c.error).filter(Boolean) };
}

describe('RespRequestParser', () => {
  it('reads RESP arrays and inline commands, however the bytes are split', () => {
    const bytes = `${resp('SET', 'k', 'hello')}PING\r\n\r\n${resp('GET', 'k')}ECHO "a b" 'c'\r\n`;
    for (let cut = 1; cut < bytes.length; cut++) {
      const { commands, errors } = feedSplit(bytes, [cut]);
      expect(errors).toEqual([]);
      expect(texts(commands)).toEqual(['SET k hello', 'PING', 'GET k', 'ECHO a b c']);
    }
    expect(feedSplit(bytes, []).commands.map((c) => c.bytes)).toEqual([31, 6, 20, 16]);
  });

  it('never keeps a password: not in the arguments, not in any head, wherever the chunks are cut', () => {
    const secret = 'S3cretXyzzy9';
    const bytes = `${resp('HELLO', '3', 'AUTH', 'default', secret, 'SETNAME', 'app')}${resp('AUTH', secret)}AUTH ${secret}\r\n${resp('CONFIG', 'SET', 'requirepass', secret)}`;
    for (let a = 1; a < bytes.length; a += 3) {
      const { commands, heads } = feedSplit(bytes, [a, Math.min(bytes.length - 1, a + 7)].filter((c, i, all) => all.indexOf(c) === i));
      const all = JSON.stringify([texts(commands), heads]);
      // No four bytes of it in a row, anywhere.
      for (let k = 0; k + 4 <= secret.length; k++) expect(all).not.toContain(secret.slice(k, k + 4));
      expect(texts(commands)).toEqual(['HELLO 3 AUTH default (redacted) SETNAME app', 'AUTH (redacted)', 'AUTH (redacted)', 'CONFIG SET requirepass (redacted)']);
    }
  });

  it('refuses what Redis refuses: a bad multibulk length, a missing $, a bulk over the limit, an inline line over 64 KiB', () => {
    expect(feedSplit('*x\r\n', []).errors[0]).toMatch(/invalid multibulk length/);
    expect(feedSplit('*1\r\n:3\r\n', []).errors[0]).toMatch(/expected '\$', got ':'/);
    expect(feedSplit('*1\r\n$2000\r\n', []).errors[0]).toMatch(/2,000 bytes is longer than the observing limit of 1,024 bytes/);
    expect(new RespRequestParser(limits).feed(Buffer.alloc(65 * 1024, 65)).error).toMatch(/inline request longer than 64 KiB/);
    expect(feedSplit('ECHO "open\r\n', []).errors[0]).toMatch(/unbalanced quotes/);
  });

  it('keeps at most 256 bytes of an argument, and its true size', () => {
    const big = 'x'.repeat(1000);
    const [command] = feedSplit(resp('SET', 'k', big), [500]).commands;
    expect(command!.args[2]!.length).toBe(256);
    expect(command!.argBytes[2]).toBe(1000);
  });

  it('hands a command already read on again (its bytes looked up), never one that held a secret', () => {
    const parser = new RespRequestParser(limits);
    const [a] = parser.feed(Buffer.from(resp('PING'))).commands;
    const [b, c] = parser.feed(Buffer.from(resp('PING') + resp('PING'))).commands;
    expect(b).toBe(a);
    expect(c).toBe(a);
    const [x] = parser.feed(Buffer.from(resp('AUTH', 'pw'))).commands;
    const [y] = parser.feed(Buffer.from(resp('AUTH', 'pw'))).commands;
    expect(y).not.toBe(x);
    expect(texts([y!])).toEqual(['AUTH (redacted)']);
  });

  it('a pipeline of one command repeated, then another, reads the same wherever its chunks are cut', () => {
    const bytes = resp('PING').repeat(5) + resp('SET', 'k', 'v') + resp('PING').repeat(3) + 'PING\r\n'.repeat(2) + resp('PIN');
    const expected = [...Array(5).fill('PING'), 'SET k v', ...Array(5).fill('PING'), 'PIN'];
    for (let cut = 1; cut < bytes.length; cut++) {
      for (const second of [cut + 1, cut + 13]) {
        const { commands, errors } = feedSplit(bytes, second < bytes.length ? [cut, second] : [cut]);
        expect(errors).toEqual([]);
        expect(texts(commands)).toEqual(expected);
        expect(commands.reduce((sum, c) => sum + c.bytes, 0)).toBe(bytes.length);
      }
    }
  });

  it('splits inline requests as Redis does', () => {
    expect(splitInline(Buffer.from('SET  "a\\x41\\n" \'it\\\'s\''))!.map(String)).toEqual(['SET', 'aA\n', "it's"]);
    expect(splitInline(Buffer.from('"a"b'))).toBeNull();
  });
});
