// Test traces made the one legitimate way: socket events fed through the TraceBuilder, shaped like a
// sequential run (one write and one read per command) or a pipeline (few writes, reads in chunks).
// For unit tests only; nothing here is shown to users.
import { TraceBuilder, type ServerCounts, type TraceHeader } from '../../../trace/trace-builder.ts';
import type { CommandName, RunMode, TraceDocument } from '../../../trace/trace-format.ts';

export function header(mode: RunMode, n: number, command: CommandName = 'INCR', id = `test-${mode}-${n}`): TraceHeader {
  return {
    run: {
      id,
      mode,
      command,
      n,
      valueBytes: command === 'SET' || command === 'GET' ? 16 : 0,
      startedAt: '2025-01-01T00:00:00.000Z',
      keyPattern: command === 'PING' ? '' : command === 'INCR' ? `pipescope:${id}:counter` : `pipescope:${id}:key:{i}`,
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
