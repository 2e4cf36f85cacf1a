import { describe, expect, it } from 'vitest';
import { ByteKeyCache } from './byte-key-cache.ts';

const bytes = (text: string) => Buffer.from(text, 'latin1');

describe('ByteKeyCache', () => {
  it('finds a value by bytes where they lie, and only the same bytes', () => {
    const cache = new ByteKeyCache<string>(16);
    const chunk = bytes('xx+PONG\r\n+OK\r\n');
    cache.set(chunk, 2, 9, 'pong');
    expect(cache.get(bytes('+PONG\r\n'), 0, 7)).toBe('pong');
    expect(cache.get(chunk, 9, 14)).toBeUndefined();
    expect(cache.get(bytes('+PONG\r\r'), 0, 7)).toBeUndefined();
  });

  it('knows the last key again where it is repeated (repeatAt), and not where it is cut or differs', () => {
    const cache = new ByteKeyCache<string>(16);
    expect(cache.repeatAt(bytes('+PONG\r\n'), 0)).toBe(-1);
    cache.set(bytes('+PONG\r\n'), 0, 7, 'pong');
    const chunk = bytes('+PONG\r\n+PONG\r\n+PON');
    expect(cache.repeatAt(chunk, 0)).toBe(7);
    expect(cache.repeatAt(chunk, 7)).toBe(14);
    expect(cache.lastValue).toBe('pong');
    expect(cache.repeatAt(chunk, 14)).toBe(-1); // cut by the chunk's end
    cache.set(bytes('+OK\r\n'), 0, 5, 'ok');
    expect(cache.repeatAt(chunk, 0)).toBe(-1); // the last key is now +OK
    expect(cache.get(chunk, 0, 7)).toBe('pong'); // found: the last key again
    expect(cache.repeatAt(chunk, 7)).toBe(14);
  });

  it('starts afresh when full, forgetting the last key too', () => {
    const cache = new ByteKeyCache<number>(2);
    cache.set(bytes('a'), 0, 1, 1);
    cache.set(bytes('b'), 0, 1, 2);
    cache.set(bytes('c'), 0, 1, 3);
    expect(cache.get(bytes('a'), 0, 1)).toBeUndefined();
    expect(cache.get(bytes('c'), 0, 1)).toBe(3);
    expect(cache.repeatAt(bytes('cc'), 1)).toBe(2);
  });
});
