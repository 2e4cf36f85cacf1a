import { describe, expect, it } from 'vitest';
import { kernelCounts } from '../model/kernel-counts.ts';
import { traceColumns } from '../model/trace-columns.ts';
import { modeTrace, pipelineTrace, proxiedTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { commandDetails } from './command-details.ts';
import { probesText } from './probes-text.ts';
import { serverOrder, serverOrderText } from './server-order.ts';
import { otherDetails, syscallDetails } from './server-event-details.ts';

describe('serverOrder', () => {
  it('reads the docs’ sequential order off MONITOR: Client INCR, Server 1, Client INCR, Server 2…', () => {
    const columns = traceColumns(serverTracedSequential(10));
    expect(serverOrder(columns)).toEqual({ kind: 'interleaved' });
    expect(serverOrderText(columns)).toBe(
      'On Redis (MONITOR): Client INCR, Server 1, Client INCR, Server 2… — each command ran before the next was sent (clock ±15 µs).',
    );
  });

  it('and the pipelined one: Client ×N, then Server ×N', () => {
    const columns = traceColumns(serverTracedPipeline(10));
    expect(serverOrder(columns)).toEqual({ kind: 'batched' });
    expect(serverOrderText(columns)).toMatch(/^On Redis \(MONITOR\): Client INCR ×10, then Server ×10/);
  });

  it('counts only what MONITOR saw run: an EXECABORT transaction ran MULTI and EXEC, never its INCRs', () => {
    const columns = traceColumns(modeTrace('multi', 10, { errorAt: 4, errorKind: 'queueing', monitor: true }));
    expect(serverOrder(columns)).toEqual({ kind: 'batched' });
    expect(serverOrderText(columns)).toBe(
      'On Redis (MONITOR): Client MULTI, INCR ×10, EXEC, then Server ×2 (MULTI, EXEC) — ran after the last command was sent; INCR ×10 never ran (clock ±15 µs).',
    );
    // A transaction that ran whole still says "all ran".
    expect(serverOrderText(traceColumns(modeTrace('multi', 10, { monitor: true })))).toMatch(/then Server ×12 — all ran after the last command was sent/);
  });

  it('says nothing for a run without execution times', () => {
    expect(serverOrderText(traceColumns(pipelineTrace(10)))).toBeNull();
  });
});

describe('kernel counts and probes', () => {
  it('counts read() and write()+writev() calls from strace, never estimating', () => {
    expect(kernelCounts(serverTracedSequential(10))).toEqual({ reads: 10, writes: 10, waits: 10 });
    expect(kernelCounts(serverTracedPipeline(10))).toEqual({ reads: 1, writes: 1, waits: 0 });
    expect(kernelCounts(serverTracedSequential(10, false))).toBeNull();
    expect(kernelCounts(pipelineTrace(10))).toBeNull();
  });

  it('names the probes that recorded a run', () => {
    expect(probesText(pipelineTrace(3))).toBe('probes: client socket only');
    expect(probesText(proxiedTrace())).toBe('probes: client socket · delay proxy');
    expect(probesText(serverTracedSequential(3))).toBe('probes: client socket · MONITOR · strace');
    expect(probesText(serverTracedSequential(3, false))).toBe('probes: client socket · MONITOR');
    // strace asked for, but it could not be used: no syscalls.
    const noStrace = serverTracedSequential(3, false);
    expect(probesText({ ...noStrace, run: { ...noStrace.run, probes: { ...noStrace.run.probes, strace: true } } })).toBe(
      'probes: client socket · MONITOR · strace unavailable',
    );
  });
});

describe('tooltips of the Redis side', () => {
  it('adds the execution time to a command, with its uncertainty and source', () => {
    const rows = Object.fromEntries(commandDetails(traceColumns(serverTracedSequential(2)), 1).rows.map((r) => [r.label, r.value]));
    expect(rows['executed']).toBe('175 µs after t0 ± 15 µs (MONITOR)');
  });

  it('describes a syscall and another client’s command', () => {
    const columns = traceColumns(serverTracedPipeline(3));
    const read = syscallDetails(columns, 0);
    expect(read.title).toBe('read()');
    expect(read.note).toMatch(/strace/);
    const other = otherDetails(columns, 0);
    expect(other.title).toBe('GET other');
    expect(other.rows).toContainEqual({ label: 'from', value: '127.0.0.1:50123' });
  });
});

describe('the order of a transaction on Redis', () => {
  it('names its wire commands', () => {
    expect(serverOrderText(traceColumns(modeTrace('multi', 10, { monitor: true })))).toMatch(/^On Redis \(MONITOR\): Client MULTI, INCR ×10, EXEC, then Server ×12/);
  });
});
