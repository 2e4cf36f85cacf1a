import { expect, it } from 'vitest';
import { escapeBytes } from './escape-bytes.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

it('escapes RESP the way the docs print it', () => {
  expect(escapeBytes(bytes('*1\r\n$4\r\nPING\r\n'), 64)).toBe('*1\\r\\n$4\\r\\nPING\\r\\n');
  expect(escapeBytes(bytes('PING\r\nPING\r\nPING\r\n'), 64)).toBe('PING\\r\\nPING\\r\\nPING\\r\\n');
});

it('names quotes, backslashes and tabs, and hex-escapes other bytes', () => {
  expect(escapeBytes(Uint8Array.from([34, 92, 9, 0, 255, 65]), 64)).toBe('\\"\\\\\\t\\x00\\xffA');
});

it('cuts after the limit and says so', () => {
  expect(escapeBytes(bytes('+PONG\r\n'), 3)).toBe('+PO…');
  expect(escapeBytes(bytes('abc'), 3)).toBe('abc');
});
