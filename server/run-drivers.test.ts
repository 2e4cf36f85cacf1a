import { expect, it } from 'vitest';
import { chunks, encode } from './run-drivers.ts';

it('chunks cover 0..n in order, the last one holding the remainder', () => {
  expect([...chunks(2500, 1000)]).toEqual([[0, 1000], [1000, 2000], [2000, 2500]]);
  expect([...chunks(3, 10)]).toEqual([[0, 3]]);
  expect([...chunks(4, 1)]).toEqual([[0, 1], [1, 2], [2, 3], [3, 4]]);
});

it('encodes a command as a RESP array of bulk strings', () => {
  expect(encode(['SET', 'k', Buffer.from('v1')]).toString()).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\nv1\r\n');
});
