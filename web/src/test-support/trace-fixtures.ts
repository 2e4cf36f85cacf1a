// Test traces made the one legitimate way: socket events fed through the TraceBuilder, shaped like a
// sequential run (one write and one read per command) or a pipeline (few writes, reads in chunks).
// For unit tests only; nothing here is shown to users.
import { escapeBytes } from '../../../trace/format/escape-bytes.ts';
import { TraceBuilder, type ServerCounts, type TraceHeader } from '../../../trace/format/trace-builder.ts';
import {
  HEAD_BYTES, KEYS_AFTER_SOURCE, MEMORY_CLIENT_SOURCE, MEMORY_SERVER_SOURCE, type CommandName, type Memory, type RunMode, type ServerTrace, type Syscall,
  type TraceDocument,
} from '../../../trace/format/trace-format.ts';

export function header(mode: RunMode, n: number, command: CommandName = 'INCR', id = `test-${mode}-${n}`): TraceHeader {
  return {
    run: {
      id,
      mode,
      command,
      n,
      operations: n,
      valueBytes: command === 'SET' || command === 'GET' ? 16 : 0,
      startedAt: '2025-01-01T00:00:00.000Z',
      keyPattern: command === 'PING' ? '' : command === 'INCR' ? `pipescope:${id}:counter` : `pipescope:${id}:key:{i}`,
      warmup: null,
      injectedError: null,
      repeat: 0,
      probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false },
    },
    redis: { version: '7.0.15', embedded: true, address: '127.0.0.1:6379' },
    rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 40, measuredMedianUs: 50, samples: 5 },
    recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.0.0' },
  };
}

const SERVER = (reads: number, writes: number): ServerCounts => ({ reads, writes, execUs: reads * 2, source: 'redis-info', exclusive: true });

/** Each command written after the previous reply: rttUs apart, gapUs between reply and next write. */
export function sequentialTrace(n: number, rttUs = 100, gapUs = 20, command: CommandName = 'INCR'): TraceDocument {
  const b = new TraceBuilder(header('sequential', n, command));
  let t = 10;
  for (let i = 0; i < n; i++) {
    b.addBatch({
      writes: [{ atUs: t, bytes: 40, commands: 1 }],
      reads: [{ atUs: t + rttUs, bytes: 4, replies: 1 }],
      outcomes: [command === 'INCR' ? { reply: i + 1 } : { reply: 'OK' }],
    });
    t += rttUs + gapUs;
  }
  return b.finish(SERVER(n, n));
}

/** All commands in writes of writeSize, replies in chunks of readSize arriving 1 µs apart after firstReplyUs. */
export function pipelineTrace(n: number, writeSize = n, readSize = n, firstReplyUs = 500, command: CommandName = 'INCR'): TraceDocument {
  const b = new TraceBuilder(header('pipeline', n, command));
  let written = 0;
  let t = 10;
  while (written < n) {
    const commands = Math.min(writeSize, n - written);
    b.addWrite({ atUs: t, bytes: commands * 40, commands });
    written += commands;
    t += 1;
  }
  let replied = 0;
  t = Math.max(t, firstReplyUs);
  while (replied < n) {
    const replies = Math.min(readSize, n - replied);
    b.addRead({ atUs: t, bytes: replies * 4, replies });
    for (let i = 0; i < replies; i++) b.addOutcome(command === 'INCR' ? { reply: replied + i + 1 } : { reply: 'PONG' });
    replied += replies;
    t += 1;
  }
  return b.finish(SERVER(Math.ceil(n / 1000), Math.ceil(n / 1000)));
}

/**
 * n commands in pipelines of `chunk`: each pipeline one write at t, its replies in one read at t + rttUs,
 * the next pipeline written gapUs after that. memory: the samples to finish with (or none).
 */
export function chunkedTrace(n: number, chunk: number, rttUs = 100, gapUs = 20, command: CommandName = 'PING', memory: Memory | null = null): TraceDocument {
  const h = header('chunked', n, command);
  const b = new TraceBuilder({ ...h, run: { ...h.run, chunk } });
  let t = 10;
  for (let first = 0; first < n; first += chunk) {
    const commands = Math.min(chunk, n - first);
    b.addBatch({
      writes: [{ atUs: t, bytes: commands * 14, commands }],
      reads: [{ atUs: t + rttUs, bytes: commands * 7, replies: commands }],
      outcomes: Array.from({ length: commands }, () => ({ reply: command === 'PING' ? 'PONG' : 'OK' })),
    });
    t += rttUs + gapUs;
  }
  return b.finish(SERVER(Math.ceil(n / chunk), Math.ceil(n / chunk)), { memory });
}

const MiB = 1024 * 1024;

/**
 * Memory samples at the given times: the client's heap is 10 MiB + i × heapStep at its i-th sample (RSS
 * 20 MiB more); Redis's run connection holds 20 KiB + i × 1 KiB (qbuf i KiB, omem 0), used_memory 1 MiB + i KiB.
 */
export function memorySamples(clientUs: number[], serverUs: number[], heapStep = MiB, intervalMs = 10): Memory {
  return {
    intervalMs,
    server: {
      source: MEMORY_SERVER_SOURCE,
      samples: serverUs.map((atUs, i) => ({ atUs, qbuf: i * 1024, omem: 0, totMem: 20 * 1024 + i * 1024, usedMemory: MiB + i * 1024 })),
    },
    client: {
      source: MEMORY_CLIENT_SOURCE,
      samples: clientUs.map((atUs, i) => ({ atUs, rss: 30 * MiB + i * heapStep, heapUsed: 10 * MiB + i * heapStep, external: MiB })),
    },
  };
}

/** One PING through the delay proxy: written at 10 µs, at Redis at 60, back from Redis at 70, read at 120. */
export function proxiedTrace(): TraceDocument {
  const b = new TraceBuilder(header('sequential', 1, 'PING'));
  b.addBatch({
    writes: [{ atUs: 10, bytes: 14, commands: 1 }],
    toServer: [{ atUs: 60, bytes: 14, commands: 1 }],
    fromServer: [{ atUs: 70, bytes: 7, replies: 1 }],
    reads: [{ atUs: 120, bytes: 7, replies: 1 }],
    outcomes: [{ reply: 'PONG' }],
  });
  return b.finish(SERVER(1, 1));
}

const head = (text: string) => escapeBytes(new TextEncoder().encode(text), HEAD_BYTES);
const INCR = (id: string) => `*2\r\n$4\r\nINCR\r\n$${`pipescope:${id}:counter`.length}\r\npipescope:${id}:counter\r\n`;
const CLOCK = { offsetUs: 1_700_000_000_000_000, uncertaintyUs: 15, samples: 8 };

/** The header of a run that asked for MONITOR, and strace when `strace`. */
function tracedHeader(mode: RunMode, n: number, id: string, strace: boolean): TraceHeader {
  const h = header(mode, n, 'INCR', id);
  return { ...h, run: { ...h.run, probes: { ...h.run.probes, monitor: true, strace } } };
}

/**
 * A server-traced sequential INCR run: per command a client write at t, Redis's read() at t+30,
 * execution at t+45, write() at t+60, an epoll_wait at t+70 and the client's read at t+100.
 * strace = false: MONITOR only (syscalls null).
 */
export function serverTracedSequential(n: number, strace = true): TraceDocument {
  const h = tracedHeader('sequential', n, `traced-seq-${n}`, strace);
  const b = new TraceBuilder(h);
  const command = INCR(h.run.id);
  const calls: Syscall[] = [];
  const serverUs: number[] = [];
  let t = 10;
  for (let i = 0; i < n; i++) {
    const reply = `:${i + 1}\r\n`;
    b.addBatch({
      writes: [{ atUs: t, bytes: command.length, commands: 1, head: head(command) }],
      reads: [{ atUs: t + 100, bytes: reply.length, replies: 1, head: head(reply) }],
      outcomes: [{ reply: i + 1 }],
    });
    calls.push({ atUs: t + 30, call: 'read', result: command.length, head: head(command) });
    serverUs.push(t + 45);
    calls.push({ atUs: t + 60, call: 'write', result: reply.length, head: head(reply) });
    calls.push({ atUs: t + 70, call: 'epoll_wait', result: 1, head: '' });
    t += 120;
  }
  const trace: ServerTrace = { clock: CLOCK, others: [], syscalls: strace ? { source: 'strace', calls } : null };
  return b.finish(SERVER(n, n), { serverSide: { trace, serverUs } });
}

/**
 * A server-traced INCR pipeline: one client write at 10 µs, Redis's read() at 200, executions at
 * 300 + i, one write() after the last, the client's read at 500 + n; another client's GET at 250.
 */
export function serverTracedPipeline(n: number): TraceDocument {
  const h = tracedHeader('pipeline', n, `traced-pipe-${n}`, true);
  const b = new TraceBuilder(h);
  const commands = INCR(h.run.id).repeat(n);
  const replies = Array.from({ length: n }, (_, i) => `:${i + 1}\r\n`).join('');
  b.addWrite({ atUs: 10, bytes: commands.length, commands: n, head: head(commands) });
  b.addRead({ atUs: 500 + n, bytes: replies.length, replies: n, head: head(replies) });
  for (let i = 0; i < n; i++) b.addOutcome({ reply: i + 1 });
  const trace: ServerTrace = {
    clock: CLOCK,
    others: [{ atUs: 250, source: '127.0.0.1:50123', command: 'GET other' }],
    syscalls: {
      source: 'strace',
      calls: [
        { atUs: 200, call: 'read', result: commands.length, head: head(commands) },
        { atUs: 310 + n, call: 'write', result: replies.length, head: head(replies) },
      ],
    },
  };
  return b.finish(SERVER(1, 1), { serverSide: { trace, serverUs: Array.from({ length: n }, (_, i) => 300 + i) } });
}

/** Batching-mode fixtures: options of a run with a planted error, a transaction or MONITOR. */
export interface ModeTraceOptions {
  /** A planted failing INCR at this operation, and its kind. */
  errorAt?: number;
  errorKind?: 'runtime' | 'queueing';
  /** MONITOR on: executions at 300 + i µs, and these other clients' commands (atUs, source). */
  monitor?: boolean;
  others?: { atUs: number; source: string; command: string }[];
  /** Keys read back after the run (value per operation), or none. */
  keysAfter?: boolean;
}

const RUNTIME_ERROR = 'ERR value is not an integer or out of range';
const QUEUEING_ERROR = "ERR wrong number of arguments for 'incr' command";

/**
 * ops INCRs on a key each (pipescope:<id>:key:{i}) in one write, as `mode` puts them on the wire (pipeline,
 * multi, eval, evalsha), replies in one read at 500 µs: QUEUED inside MULTI, EXEC's array preview, the
 * planted error where Redis gives it (a runtime error inside MULTI is inside EXEC's array; a queueing one
 * is the command's own reply and EXEC then says EXECABORT).
 */
export function modeTrace(mode: 'pipeline' | 'multi' | 'eval' | 'evalsha', ops: number, o: ModeTraceOptions = {}): TraceDocument {
  const id = `test-${mode}-${ops}${o.errorAt === undefined ? '' : `-err${o.errorAt}-${o.errorKind ?? 'runtime'}`}`;
  const h = header(mode, ops, 'INCR', id);
  const n = mode === 'multi' ? ops + 2 : mode === 'eval' ? 1 : ops;
  const injectedError = o.errorAt === undefined ? null : { operation: o.errorAt, kind: o.errorKind ?? 'runtime' };
  const run = {
    ...h.run, n, keyPattern: `pipescope:${id}:key:{i}`, injectedError,
    probes: { ...h.run.probes, monitor: o.monitor ?? false },
  };
  const b = new TraceBuilder({ ...h, run });
  b.addWrite({ atUs: 10, bytes: n * 40, commands: n });
  b.addRead({ atUs: 500, bytes: n * 8, replies: n });
  const failsAt = (op: number) => o.errorAt === op;
  const queueing = o.errorKind === 'queueing';
  const values = Array.from({ length: ops }, (_, op) => (failsAt(op) ? RUNTIME_ERROR : '1'));
  if (mode === 'multi') {
    b.addOutcome({ reply: 'OK' });
    for (let op = 0; op < ops; op++) b.addOutcome(failsAt(op) && queueing ? { error: QUEUEING_ERROR } : { reply: 'QUEUED' });
    const preview = `[${values.map((v) => (v === '1' ? 1 : v)).join(', ')}]`.slice(0, 64);
    b.addOutcome(o.errorAt !== undefined && queueing ? { error: 'EXECABORT Transaction discarded because of previous errors.' } : { reply: preview });
  } else if (mode === 'eval') {
    b.addOutcome(o.errorAt === undefined ? { reply: ops } : { error: `${RUNTIME_ERROR} script: 1` });
  } else {
    for (let op = 0; op < ops; op++) b.addOutcome(failsAt(op) ? { error: queueing ? QUEUEING_ERROR : RUNTIME_ERROR } : { reply: 1 });
  }
  const aborted = mode === 'multi' && o.errorAt !== undefined && queueing;
  const keysAfter = o.keysAfter
    ? {
        source: KEYS_AFTER_SOURCE,
        keys: Array.from({ length: ops }, (_, op) => ({
          key: `pipescope:${id}:key:${op}`,
          // Runtime: the planted key holds its text; queueing: that INCR never ran, its key does not exist.
          value: aborted ? (failsAt(op) && !queueing ? 'not-a-number' : null) : failsAt(op) ? (queueing ? null : 'not-a-number') : '1',
        })),
        truncated: false,
      } as const
    : null;
  const step = Math.min(25, 280 / n);
  // Never executed (no MONITOR line): a command refused while queueing, and in an aborted transaction every queued one.
  const neverRan = (i: number) => {
    const op = mode === 'multi' ? i - 1 : i;
    if (mode === 'multi' && (i === 0 || i === n - 1)) return false;
    return queueing && o.errorAt !== undefined && (aborted || op === o.errorAt);
  };
  const serverUs = o.monitor ? Array.from({ length: n }, (_, i) => (neverRan(i) ? null : 200 + i * step)) : null;
  const serverSide = serverUs ? { trace: { clock: CLOCK, others: o.others ?? [], syscalls: null }, serverUs } : undefined;
  return b.finish(SERVER(1, 1), { keysAfter, ...(serverSide ? { serverSide } : {}) });
}
