// The quick check must never be looser than the schema: whatever it calls plain, the schema accepts
// and returns unchanged, key order included (exported files are compared byte for byte).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPlainCommand, isPlainRead, isPlainWireOutcome, isPlainWrite } from './plain-elements.ts';
import { CommandRecordSchema, SocketReadSchema, SocketWriteSchema } from './trace-format.ts';

const WireOutcomeSchema = z.union([z.string(), z.number(), z.null(), z.object({ e: z.string() })]);

function expectNeverLooser(check: (v: unknown) => boolean, schema: z.ZodType, samples: unknown[], plain: number): void {
  for (const sample of samples) {
    if (!check(sample)) continue;
    const parsed = schema.safeParse(sample);
    expect(parsed.success, JSON.stringify(sample)).toBe(true);
    expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(sample));
  }
  expect(samples.filter(check)).toHaveLength(plain);
}

describe('commands', () => {
  const samples = [
    { index: 0, sentUs: 1, repliedUs: 2, reply: 'PONG' },
    { index: 1, sentUs: 1.5, toServerUs: 2, serverUs: -3, fromServerUs: 4, repliedUs: 5, reply: null },
    { index: 2, sentUs: 1, repliedUs: 2, reply: 42 },
    { index: 3, sentUs: 1, repliedUs: 2, error: 'ERR wrong type' },
    // Not plain: the schema decides (and may refuse, or rewrite).
    { sentUs: 1, index: 0, repliedUs: 2, reply: 'PONG' },
    { index: 0, sentUs: 1, repliedUs: 2, reply: 'PONG', extra: 1 },
    { index: 0, sentUs: 1, repliedUs: 2, reply: 'PONG', error: 'x' },
    { index: 0, sentUs: -1, repliedUs: 2, reply: 'PONG' },
    { index: 0.5, sentUs: 1, repliedUs: 2, reply: 'PONG' },
    { index: 0, sentUs: 1, repliedUs: 2 },
    { index: 0, sentUs: 1, repliedUs: 2, reply: { a: 1 } },
    { index: 0, sentUs: 1, repliedUs: 2, error: 5 },
    { index: 0, sentUs: 1, toServerUs: undefined, repliedUs: 2, reply: 'x' },
    null, 5, 'x', [],
  ];
  it('calls plain only what the schema returns unchanged', () => expectNeverLooser(isPlainCommand, CommandRecordSchema, samples, 4));
});

describe('writes and reads', () => {
  const writes = [
    { atUs: 0, bytes: 14, firstCommand: 0, commands: 1 },
    { atUs: 0.5, bytes: 18, firstCommand: 0, commands: 3, head: 'PING\\r\\n' },
    { atUs: 0, bytes: 14, commands: 1, firstCommand: 0 },
    { atUs: 0, bytes: 1.5, firstCommand: 0, commands: 1 },
    { atUs: 0, bytes: 14, firstCommand: 0, commands: 1, head: 7 },
  ];
  const reads = [
    { atUs: 0, bytes: 7, firstReply: 0, replies: 1 },
    { atUs: 3, bytes: 7, firstReply: 0, replies: 1, head: '+PONG\\r\\n' },
    { atUs: 3, bytes: 7, firstReply: 0, replies: -1 },
    { atUs: 3, bytes: 7, firstCommand: 0, replies: 1 },
  ];
  it('calls plain only what the schema returns unchanged', () => {
    expectNeverLooser(isPlainWrite, SocketWriteSchema, writes, 2);
    expectNeverLooser(isPlainRead, SocketReadSchema, reads, 2);
  });
});

describe('run-events outcomes', () => {
  const samples = ['PONG', 1, -2.5, null, { e: 'ERR x' }, { e: 1 }, { e: 'x', f: 1 }, {}, [], true, undefined];
  it('calls plain only what the schema returns unchanged', () => expectNeverLooser(isPlainWireOutcome, WireOutcomeSchema, samples, 5));
});
