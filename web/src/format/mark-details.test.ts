import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { commandDetails } from './command-details.ts';
import { markDetails } from './mark-details.ts';
import { otherDetails, syscallDetails } from './server-event-details.ts';

describe('markDetails', () => {
  it('gives a command and its execution the command\'s rows, a syscall and another client\'s command their own', () => {
    const columns = traceColumns(serverTracedPipeline(3));
    expect(markDetails(columns, { kind: 'command', index: 2 })).toEqual(commandDetails(columns, 2));
    expect(markDetails(columns, { kind: 'execution', index: 1 })).toEqual(commandDetails(columns, 1));
    expect(markDetails(columns, { kind: 'syscall', index: 1 })).toEqual(syscallDetails(columns, 1));
    expect(markDetails(columns, { kind: 'other', index: 0 })).toEqual(otherDetails(columns, 0));
  });

  it('has nothing for a mark the trace does not draw', () => {
    const columns = traceColumns(sequentialTrace(3));
    expect(markDetails(columns, { kind: 'command', index: 3 })).toBeNull();
    expect(markDetails(columns, { kind: 'execution', index: 0 })).toBeNull();
    expect(markDetails(columns, { kind: 'syscall', index: 0 })).toBeNull();
    expect(markDetails(columns, { kind: 'other', index: 0 })).toBeNull();
  });
});
