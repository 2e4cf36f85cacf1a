import { expect, it } from 'vitest';
import { encode, encodeBatch } from './resp-encoder.ts';
import { workloadFor } from './run-workload.ts';

it('encodes a command as a RESP array of bulk strings, lengths in bytes', () => {
  expect(encode(['SET', 'k', Buffer.from('v1')]).toString()).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\nv1\r\n');
  expect(encode(['SET', 'ké', 'x']).toString()).toBe('*3\r\n$3\r\nSET\r\n$3\r\nké\r\n$1\r\nx\r\n');
});

it('encodes a batch of PINGs inline, one after the other', () => {
  const { bytes, offsets } = encodeBatch(workloadFor('PING', 'pipescope:t:', 0), 3);
  expect(bytes.toString()).toBe('PING\r\nPING\r\nPING\r\n');
  expect([...offsets]).toEqual([0, 6, 12, 18]);
});

it('encodes a batch of SETs exactly as one command at a time, with each command\'s offsets', () => {
  const workload = workloadFor('SET', 'pipescope:t:', 12);
  const { bytes, offsets } = encodeBatch(workload, 11);
  const one = (i: number) => encode([workload.command, ...workload.argsFor(i)]);
  expect(bytes).toEqual(Buffer.concat(Array.from({ length: 11 }, (_, i) => one(i))));
  for (let i = 0; i < 11; i++) expect(bytes.subarray(offsets[i]!, offsets[i + 1]!)).toEqual(one(i));
});
