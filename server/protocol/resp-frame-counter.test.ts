import { describe, expect, it } from 'vitest';
import { RespFrameCounter } from './resp-frame-counter.ts';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'latin1');

/** Messages completed by feeding `text` in one chunk. */
function countWhole(text: string): number {
  return new RespFrameCounter().feed(bytes(text));
}

/** Total completed when `text` is cut into chunks at the given offsets. */
function countSplit(text: string, cuts: number[]): number {
  const counter = new RespFrameCounter();
  const data = bytes(text);
  let total = 0;
  let start = 0;
  for (const cut of [...cuts, data.length]) {
    total += counter.feed(data.subarray(start, cut));
    start = cut;
  }
  return total;
}

/** Expects `text` to count `expected` in one chunk, split once at every offset, and byte by byte. */
function expectCount(text: string, expected: number): void {
  expect(countWhole(text)).toBe(expected);
  for (let cut = 0; cut <= text.length; cut++) {
    expect(countSplit(text, [cut]), `split at byte ${cut}`).toBe(expected);
  }
  expect(countSplit(text, Array.from({ length: text.length }, (_, i) => i))).toBe(expected);
}

const PING = '*1\r\n$4\r\nPING\r\n';

describe('requests (what the client writes)', () => {
  it('counts N array-of-bulk PINGs in one chunk', () => {
    expect(countWhole(PING.repeat(100))).toBe(100);
  });

  it('gives the same total when the stream is split at every possible byte boundary', () => {
    expectCount(PING.repeat(5), 5);
  });

  it('gives the same total split into two at every pair of boundaries', () => {
    const text = PING.repeat(3);
    for (let a = 0; a <= text.length; a++) {
      for (let b = a; b <= text.length; b++) expect(countSplit(text, [a, b])).toBe(3);
    }
  });

  it('counts a command in the chunk that carries its last byte', () => {
    const counter = new RespFrameCounter();
    expect(counter.feed(bytes(PING + PING.slice(0, 9)))).toBe(1);
    expect(counter.feed(bytes(PING.slice(9)))).toBe(1);
  });

  it('counts SET with a binary-safe value', () => {
    expectCount('*3\r\n$3\r\nSET\r\n$20\r\npipescope:abcd:key:0\r\n$6\r\nab\r\ncd\r\n', 1);
  });

  it('counts inline commands, one per line', () => {
    expectCount('PING\r\nPING\r\nPING\r\n', 3);
    expect(countWhole('PING\nPING\n')).toBe(2);
  });

  it('ignores empty inline lines', () => {
    expect(countWhole('\r\n\r\nPING\r\n')).toBe(1);
  });

  it('counts inline and RESP requests mixed', () => {
    expectCount(`PING\r\n${PING}INCR pipescope:abcd:counter\r\n`, 3);
  });
});

describe('replies (what the client reads)', () => {
  it.each([
    ['simple string', '+PONG\r\n'],
    ['error', '-ERR unknown command\r\n'],
    ['integer', ':1\r\n'],
    ['bulk string', '$5\r\nhello\r\n'],
    ['empty bulk string', '$0\r\n\r\n'],
    ['null bulk string', '$-1\r\n'],
    ['null array', '*-1\r\n'],
    ['empty array', '*0\r\n'],
    ['bulk string with CRLF inside its payload', '$8\r\na\r\nb\r\n\r\n\r\n'],
    ['bulk string that looks like RESP', '$14\r\n*1\r\n$4\r\nPING\r\n\r\n'],
    ['array of mixed elements', '*3\r\n:1\r\n$3\r\nfoo\r\n+OK\r\n'],
    ['nested arrays', '*2\r\n*2\r\n:1\r\n:2\r\n*1\r\n$1\r\nx\r\n'],
    ['array holding null and empty aggregates', '*3\r\n$-1\r\n*0\r\n*-1\r\n'],
    ['RESP3 map', '%1\r\n+a\r\n:1\r\n'],
    ['RESP3 map of arrays', '%2\r\n+a\r\n*2\r\n:1\r\n:2\r\n+b\r\n*0\r\n'],
    ['RESP3 set', '~2\r\n+a\r\n+b\r\n'],
    ['RESP3 null', '_\r\n'],
    ['RESP3 boolean', '#t\r\n'],
    ['RESP3 double', ',3.14\r\n'],
    ['RESP3 big number', '(3492890328409238509324850943850943825024385\r\n'],
    ['RESP3 verbatim string', '=15\r\ntxt:Some string\r\n'],
    ['RESP3 blob error', '!21\r\nSYNTAX invalid syntax\r\n'],
  ])('one %s is one message, however it is split', (_name, text) => {
    expectCount(text, 1);
  });

  it('counts a stream of many different replies', () => {
    const replies = ['+PONG\r\n', ':1\r\n', '$-1\r\n', '*-1\r\n', '*0\r\n', '$2\r\n\r\n\r\n', '%1\r\n+a\r\n:1\r\n', '*2\r\n*1\r\n:1\r\n:2\r\n'];
    expectCount(replies.join(''), replies.length);
  });

  it('does not count an aggregate until its last element has arrived', () => {
    const counter = new RespFrameCounter();
    expect(counter.feed(bytes('*2\r\n:1\r\n'))).toBe(0);
    expect(counter.feed(bytes('*1\r\n'))).toBe(0); // a nested array opens
    expect(counter.feed(bytes(':2\r\n'))).toBe(1);
  });
});

describe('atBoundary', () => {
  it('is true before anything and after each complete message', () => {
    const counter = new RespFrameCounter();
    expect(counter.atBoundary).toBe(true);
    counter.feed(bytes(PING));
    expect(counter.atBoundary).toBe(true);
  });

  it('is false at every cut inside a message', () => {
    for (let cut = 1; cut < PING.length; cut++) {
      const counter = new RespFrameCounter();
      counter.feed(bytes(PING.slice(0, cut)));
      expect(counter.atBoundary, `after ${cut} bytes`).toBe(false);
      counter.feed(bytes(PING.slice(cut)));
      expect(counter.atBoundary).toBe(true);
    }
  });

  it('is false inside an open aggregate between complete elements', () => {
    const counter = new RespFrameCounter();
    counter.feed(bytes('%1\r\n+a\r\n'));
    expect(counter.atBoundary).toBe(false);
    counter.feed(bytes(':1\r\n'));
    expect(counter.atBoundary).toBe(true);
  });

  it('is false in the middle of an inline command', () => {
    const counter = new RespFrameCounter();
    counter.feed(bytes('PIN'));
    expect(counter.atBoundary).toBe(false);
    expect(counter.feed(bytes('G\r\n'))).toBe(1);
    expect(counter.atBoundary).toBe(true);
  });
});
