import { describe, expect, it } from 'vitest';
import { traceColumns } from '../model/trace-columns.ts';
import { modeTrace, sequentialTrace, serverTracedPipeline } from '../test-support/trace-fixtures.ts';
import { markLabel } from './mark-label.ts';

describe('the full text label of a diagram mark', () => {
  it('a command: 1-based, its write and read, its round trip and its reply', () => {
    const columns = traceColumns(sequentialTrace(3));
    expect(markLabel(columns, { kind: 'command', index: 1 })).toBe(
      'Command 2 of 3, INCR, sent in write 2 at 130 µs, reply read at 230 µs (read 2), round trip 100 µs; reply 2.',
    );
  });

  it('a server-traced command adds when Redis executed it; its execution mark says the same from Redis’s side', () => {
    const columns = traceColumns(serverTracedPipeline(3));
    expect(markLabel(columns, { kind: 'command', index: 0 })).toMatch(
      /^Command 1 of 3, INCR, sent in write 1 at 10 µs, reply read at 503 µs \(read 1\), round trip 493 µs; Redis executed it at 300 µs ± \S+ µs \(MONITOR\); reply 1\.$/,
    );
    expect(markLabel(columns, { kind: 'execution', index: 2 })).toMatch(
      /^Redis executed command 3 of 3, INCR, at 302 µs ± \S+ µs \(MONITOR\); the client sent it at 10 µs \(write 1\) and read its reply at 503 µs \(read 1\)\.$/,
    );
  });

  it('syscalls and other clients’ commands', () => {
    const columns = traceColumns(serverTracedPipeline(3));
    expect(markLabel(columns, { kind: 'syscall', index: 0 })).toMatch(/^Syscall 1 of 2: Redis read\(\) on the run’s socket at 200 µs ± \S+ µs \(strace\), \d+ B, request bytes coming in\.$/);
    expect(markLabel(columns, { kind: 'syscall', index: 1 })).toMatch(/^Syscall 2 of 2: Redis write\(\) .* reply bytes going out\.$/);
    expect(markLabel(columns, { kind: 'other', index: 0 })).toMatch(
      /^Other client’s command 1 of 1: GET other, from 127\.0\.0\.1:50123 at 250 µs ± \S+ µs \(MONITOR\), on the same Redis during the run\.$/,
    );
  });

  it('error replies, wire names of a transaction, and commands Redis never ran', () => {
    const columns = traceColumns(modeTrace('multi', 3, { errorAt: 1, errorKind: 'queueing', monitor: true }));
    expect(markLabel(columns, { kind: 'command', index: 0 })).toMatch(/^Command 1 of 5, MULTI, .*; reply OK\.$/);
    expect(markLabel(columns, { kind: 'command', index: 2 })).toMatch(/^Command 3 of 5, INCR, .*; Redis never executed it \(no MONITOR line\); error reply: ERR wrong number of arguments for 'incr' command\.$/);
    expect(markLabel(columns, { kind: 'command', index: 4 })).toMatch(/^Command 5 of 5, EXEC, .*; error reply: EXECABORT/);
  });
});
