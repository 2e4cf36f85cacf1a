import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { wireRows } from '../model/wire-rows.ts';
import { serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { carriedText, wireNames } from './wire-text.ts';

describe('carriedText', () => {
  it('names the one command or reply each call of a sequential run carried, counting from 1', () => {
    const rows = wireRows(traceColumns(serverTracedSequential(3)), 100);
    expect(rows.map((r) => carriedText(r.carried)).slice(4, 8)).toEqual(['command 2', 'command 2', 'reply 2', 'reply 2']);
  });

  it('gives a pipeline’s range on each of its four rows', () => {
    const rows = wireRows(traceColumns(serverTracedPipeline(10)), 100);
    expect(rows.map((r) => [r.kind, carriedText(r.carried)])).toEqual([
      ['client-write', 'commands 1–10'],
      ['server-read', 'commands 1–10'],
      ['server-write', 'replies 1–10'],
      ['client-read', 'replies 1–10'],
    ]);
  });

  it('words parts, large indices, and nothing at all', () => {
    expect(carriedText({ unit: 'command', first: 4, count: 0 })).toBe('part of command 5');
    expect(carriedText({ unit: 'reply', first: null, count: 0 })).toBe('part of a reply');
    expect(carriedText({ unit: 'command', first: null, count: 0 })).toBe('part of a command');
    expect(carriedText({ unit: 'reply', first: 1000, count: 2 })).toBe('replies 1,001–1,002');
    expect(carriedText(null)).toBe('');
  });
});

describe('wire command names in the carried column', () => {
  const multi = (i: number) => (i === 0 ? 'MULTI' : i === 11 ? 'EXEC' : 'INCR');
  it('folds runs of one name', () => {
    expect(carriedText({ unit: 'command', first: 0, count: 12 }, multi)).toBe('commands 1–12: MULTI, INCR ×10, EXEC');
    expect(carriedText({ unit: 'reply', first: 11, count: 1 }, multi)).toBe('reply 12: EXEC');
    expect(carriedText({ unit: 'command', first: 3, count: 0 }, multi)).toBe('part of command 4 (INCR)');
  });

  it('sums up a long alternation', () => {
    expect(wireNames(0, 20, (i) => (i % 2 ? 'SET' : 'GET'))).toBe('GET, SET, GET, SET, GET, …');
  });
});
