import { describe, expect, it } from 'vitest';
import { traceColumns } from './trace-columns.ts';
import { pipelineTrace, sequentialTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { parseWireKey, wireEventTimeUs, wireHeadsRecorded, wireKey, wirePosition, wireRowCount, wireRows } from './wire-rows.ts';

describe('wireRows', () => {
  it('lists a sequential run as write, Redis read, Redis write, read per command, epoll_wait left out', () => {
    const columns = traceColumns(serverTracedSequential(3));
    const rows = wireRows(columns, 100);
    expect(wireRowCount(columns)).toBe(12);
    expect(rows.map((r) => r.kind)).toEqual([
      'client-write', 'server-read', 'server-write', 'client-read',
      'client-write', 'server-read', 'server-write', 'client-read',
      'client-write', 'server-read', 'server-write', 'client-read',
    ]);
    expect(rows.map((r) => r.carried).slice(4, 8)).toEqual([
      { unit: 'command', first: 1, count: 1 }, { unit: 'command', first: 1, count: 1 },
      { unit: 'reply', first: 1, count: 1 }, { unit: 'reply', first: 1, count: 1 },
    ]);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.atUs).toBeGreaterThanOrEqual(rows[i - 1]!.atUs);
    expect(rows[0]!.head).toMatch(/^\*2\\r\\n\$4\\r\\nINCR\\r\\n/);
    expect(rows[0]!.truncated).toBe(false);
    expect(rows[2]).toMatchObject({ call: 'write', bytes: 4, head: ':1\\r\\n' });
  });

  it('lists a pipeline as one write, one Redis read carrying all N, one Redis write, one read; heads cut at 64 bytes', () => {
    const columns = traceColumns(serverTracedPipeline(10));
    const rows = wireRows(columns, 100);
    expect(rows.map((r) => [r.kind, r.carried])).toEqual([
      ['client-write', { unit: 'command', first: 0, count: 10 }],
      ['server-read', { unit: 'command', first: 0, count: 10 }],
      ['server-write', { unit: 'reply', first: 0, count: 10 }],
      ['client-read', { unit: 'reply', first: 0, count: 10 }],
    ]);
    const write = rows[0]!;
    expect(write.truncated).toBe(true);
    expect(write.head!.endsWith('…')).toBe(false);
    expect(write.bytes).toBeGreaterThan(64);
    expect(rows[3]!.truncated).toBe(false);
  });

  it('lists sizes only for a run that did not record bytes', () => {
    const columns = traceColumns(sequentialTrace(3));
    expect(wireHeadsRecorded(columns)).toBe(false);
    const rows = wireRows(columns, 100);
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.head === null)).toBe(true);
    expect(rows.map((r) => r.kind)).toEqual(['client-write', 'client-read', 'client-write', 'client-read', 'client-write', 'client-read']);
  });

  it('builds only the rows asked for', () => {
    const columns = traceColumns(sequentialTrace(10_000));
    expect(wireRowCount(columns)).toBe(20_000);
    expect(wireRows(columns, 500)).toHaveLength(500);
  });
});

describe('wirePosition', () => {
  it('agrees with the merged order for every event', () => {
    for (const doc of [serverTracedSequential(5), serverTracedPipeline(7), pipelineTrace(50, 10, 7)]) {
      const columns = traceColumns(doc);
      const rows = wireRows(columns, Infinity);
      expect(rows).toHaveLength(wireRowCount(columns));
      rows.forEach((row, i) => expect(wirePosition(columns, row)).toBe(i));
    }
  });

  it('has no row for epoll_wait or an event that does not exist', () => {
    const columns = traceColumns(serverTracedSequential(2));
    expect(columns.syscalls![2]!.call).toBe('epoll_wait');
    expect(wirePosition(columns, { source: 'syscall', event: 2 })).toBeNull();
    expect(wirePosition(columns, { source: 'write', event: 99 })).toBeNull();
  });
});

describe('wireEventTimeUs', () => {
  it('is the row\'s time for every event, and null for one the trace does not have', () => {
    const columns = traceColumns(serverTracedSequential(3));
    for (const row of wireRows(columns, Infinity)) expect(wireEventTimeUs(columns, row)).toBe(row.atUs);
    expect(wireEventTimeUs(columns, { source: 'syscall', event: 2 })).toBe(columns.syscalls![2]!.atUs);
    expect(wireEventTimeUs(columns, { source: 'write', event: columns.doc.writes.length })).toBeNull();
    expect(wireEventTimeUs(columns, { source: 'read', event: 99 })).toBeNull();
    expect(wireEventTimeUs(traceColumns(sequentialTrace(2)), { source: 'syscall', event: 0 })).toBeNull();
  });
});

describe('wire keys', () => {
  it('round-trip, and refuse anything else', () => {
    expect(parseWireKey(wireKey({ source: 'syscall', event: 12 }))).toEqual({ source: 'syscall', event: 12 });
    expect(parseWireKey('write:3')).toEqual({ source: 'write', event: 3 });
    for (const bad of ['', 'other:1', 'write:', 'write:-1', 'read:1x']) expect(parseWireKey(bad)).toBeNull();
  });
});
