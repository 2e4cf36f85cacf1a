import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { commandDetails } from './command-details.ts';
import { commandText } from './command-text.ts';
import { maxInFlight, runExplanation, waitedForPrevious } from './run-explanation.ts';

describe('runExplanation', () => {
  it('describes a sequential run as one round trip per command', () => {
    const columns = traceColumns(sequentialTrace(10));
    expect(waitedForPrevious(columns)).toBe(9);
    expect(maxInFlight(columns)).toBe(1);
    expect(runExplanation(columns)).toBe(
      '10 commands in 10 writes, replies in 10 reads: 10 round trips — each command was written only after the previous reply arrived.',
    );
  });

  it('describes a pipeline by its writes, reads and commands in flight', () => {
    expect(runExplanation(traceColumns(pipelineTrace(10)))).toBe(
      '10 commands in 1 write, replies in 1 read: all 10 were in flight at once — one round trip for the whole batch.',
    );
    const chunked = traceColumns(pipelineTrace(100, 100, 30));
    expect(runExplanation(chunked)).toMatch(/^100 commands in 1 write, replies in 4 reads/);
  });

  it('describes a chunked run by its rounds, each written after the previous round’s replies', () => {
    expect(runExplanation(traceColumns(chunkedTrace(10_000, 1000)))).toBe(
      '10,000 commands in 10 writes, replies in 10 reads: 10 rounds of up to 1,000 commands in flight — each round written only after the previous round’s replies arrived.',
    );
  });

  it('counts commands in flight for a partly overlapped run', () => {
    const columns = traceColumns(pipelineTrace(10, 5, 5, 3));
    expect(maxInFlight(columns)).toBeGreaterThanOrEqual(5);
  });
});

describe('command text and details', () => {
  it('fills the key pattern with the index', () => {
    const run = { command: 'SET' as const, keyPattern: 'pipescope:r1:key:{i}', valueBytes: 16 };
    expect(commandText(run, 7)).toBe('SET pipescope:r1:key:7 <16 B value>');
    expect(commandText({ command: 'PING', keyPattern: '', valueBytes: 0 }, 3)).toBe('PING');
  });

  it('names the command, its times, reply and the write and read that carried it', () => {
    const columns = traceColumns(pipelineTrace(10));
    const details = commandDetails(columns, 3);
    expect(details.title).toBe('#4 of 10  INCR pipescope:test-pipeline-10:counter');
    const rows = Object.fromEntries(details.rows.map((r) => [r.label, r.value]));
    expect(rows['reply']).toBe('4');
    expect(rows['latency']).toBe('490 µs');
    expect(rows['write']).toBe('#1 of 1: carried 10 commands, 400 B');
    expect(rows['read']).toBe('#1 of 1: completed 10 replies, 40 B');
  });
});
