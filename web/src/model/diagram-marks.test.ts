import { describe, expect, it } from 'vitest';
import { modeTrace, sequentialTrace, serverTracedPipeline, serverTracedSequential } from '../test-support/trace-fixtures.ts';
import { allMarks, markCounts, markTimeUs, stepMark } from './diagram-marks.ts';
import { traceColumns } from './trace-columns.ts';

const short = (m: { kind: string; index: number } | null) => (m ? `${m.kind[0]}${m.index}` : null);

describe('the marks of a diagram, in time order', () => {
  it('a plain trace has only its commands, in index order', () => {
    const columns = traceColumns(sequentialTrace(3));
    expect(allMarks(columns).map(short)).toEqual(['c0', 'c1', 'c2']);
    expect(markCounts(columns)).toEqual({ command: 3, execution: 0, syscall: 0, other: 0 });
  });

  it('a server-traced pipeline interleaves commands, the read() syscall, the other client, executions and the write()', () => {
    // Write at 10 (all 3 commands), read() at 200, other client at 250, executions at 300..302, write() at 313.
    const columns = traceColumns(serverTracedPipeline(3));
    const marks = allMarks(columns);
    expect(marks.map(short)).toEqual(['c0', 'c1', 'c2', 's0', 'o0', 'e0', 'e1', 'e2', 's1']);
    const times = marks.map((m) => markTimeUs(columns, m));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(markCounts(columns)).toEqual({ command: 3, execution: 3, syscall: 2, other: 1 });
  });

  it('steps forward and back, ×10, stopping at the ends; from nothing a step lands on the first or last mark', () => {
    const columns = traceColumns(serverTracedSequential(4));
    const all = allMarks(columns);
    // Per command: its request (t), read() (t+30), execution (t+45), write() (t+60), epoll_wait (t+70).
    expect(all.slice(0, 5).map(short)).toEqual(['c0', 's0', 'e0', 's1', 's2']);
    expect(all).toHaveLength(4 * 5);
    expect(short(stepMark(columns, null, 1))).toBe('c0');
    expect(short(stepMark(columns, null, -1))).toBe('s11');
    for (let k = 0; k + 1 < all.length; k++) {
      expect(stepMark(columns, all[k]!, 1)).toEqual(all[k + 1]);
      expect(stepMark(columns, all[k + 1]!, -1)).toEqual(all[k]);
    }
    expect(stepMark(columns, all[2]!, 10)).toEqual(all[12]);
    expect(stepMark(columns, all[15]!, 10)).toEqual(all.at(-1));
    expect(stepMark(columns, all[3]!, -10)).toEqual(all[0]);
  });

  it('jumps by kind from any mark: the next or previous of that kind in time order', () => {
    const columns = traceColumns(serverTracedSequential(4));
    const from = { kind: 'execution' as const, index: 1 }; // command 1 ran at 175 µs
    expect(short(stepMark(columns, from, 1, 'command'))).toBe('c2');
    expect(short(stepMark(columns, from, -1, 'command'))).toBe('c1');
    expect(short(stepMark(columns, from, 1, 'syscall'))).toBe('s4');
    expect(short(stepMark(columns, from, -1, 'syscall'))).toBe('s3');
    expect(short(stepMark(columns, from, 1, 'other'))).toBe('e1'); // none: the cursor stays where it is
    expect(short(stepMark(columns, null, 1, 'execution'))).toBe('e0');
  });

  it('skips the execution marks of commands Redis never ran (EXECABORT)', () => {
    const columns = traceColumns(modeTrace('multi', 3, { errorAt: 1, errorKind: 'queueing', monitor: true }));
    const executions = allMarks(columns).filter((m) => m.kind === 'execution').map((m) => m.index);
    expect(executions).toEqual([0, 4]); // MULTI and EXEC; the queued INCRs were discarded
    expect(markCounts(columns).execution).toBe(2);
  });
});
