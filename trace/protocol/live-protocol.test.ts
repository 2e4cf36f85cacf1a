import { describe, expect, it } from 'vitest';
import { ClientMessageSchema, ServerMessageSchema, decodeBatch, encodeBatch, parseFrame, parseServerFrame, type ServerMessage } from './live-protocol.ts';
import { TraceBuilder, type ProbeBatch, type TraceHeader } from '../format/trace-builder.ts';
import { describeIssues } from '../format/trace-io.ts';

const HEADER: TraceHeader = {
  run: { id: 'm3x9k2ab-0a1b2c3d', mode: 'sequential', command: 'PING', n: 10_000, operations: 10_000, valueBytes: 0, startedAt: '2025-01-01T00:00:00.000Z', keyPattern: '', warmup: null, injectedError: null, repeat: 0, probes: { monitor: false, strace: false, memory: false, kernelTcp: false, heldConnection: false } },
  redis: { version: '7.2.4', embedded: true, address: '127.0.0.1:40213' },
  rtt: { addedMs: 0, jitterMs: 0, measuredMinUs: 31, measuredMedianUs: 38, samples: 5 },
  recorder: { tool: 'pipescope', version: '0.1.0', client: 'ioredis 6.0.0', runtime: 'node v20.20.2' },
};

/** "path: message" of every issue, or 'ok'. */
function issues(schema: typeof ClientMessageSchema | typeof ServerMessageSchema, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : describeIssues(result.error);
}

describe('encodeBatch / decodeBatch', () => {
  const batch: ProbeBatch = {
    writes: [{ atUs: 0, bytes: 14, commands: 1 }, { atUs: 120.5, bytes: 40, commands: 2 }],
    reads: [{ atUs: 61, bytes: 7, replies: 1 }, { atUs: 300, bytes: 3, replies: 0 }],
    outcomes: [{ reply: 'PONG' }, { reply: 42 }, { reply: null }, { error: 'ERR wrong number of arguments' }, { reply: '' }],
  };

  it('flattens writes and reads into [atUs, bytes, count] triples and errors into {e}', () => {
    expect(encodeBatch(batch)).toEqual({
      writes: [0, 14, 1, 120.5, 40, 2],
      reads: [61, 7, 1, 300, 3, 0],
      outcomes: ['PONG', 42, null, { e: 'ERR wrong number of arguments' }, ''],
    });
  });

  it('round-trips, including error outcomes and null replies', () => {
    expect(decodeBatch(encodeBatch(batch))).toEqual(batch);
  });

  it('round-trips through JSON and the schema, as on the wire', () => {
    const message: ServerMessage = { type: 'run-events', requestId: 'r1', runId: 'run-1', ...encodeBatch(batch) };
    const received = ServerMessageSchema.parse(JSON.parse(JSON.stringify(message)));
    if (received.type !== 'run-events') throw new Error('wrong type');
    expect(decodeBatch(received)).toEqual(batch);
  });

  it('a cluster run\'s sockets travel with its writes and reads, through JSON and the schema', () => {
    const socketed: ProbeBatch = {
      writes: [{ atUs: 0, bytes: 40, commands: 1, connection: 0 }, { atUs: 1, bytes: 40, commands: 1, connection: 2 }],
      reads: [{ atUs: 50, bytes: 5, replies: 1, connection: 2 }, { atUs: 52, bytes: 5, replies: 1, connection: 0 }],
      outcomes: [{ reply: 'OK' }, { reply: 'OK' }],
    };
    const encoded = encodeBatch(socketed);
    expect(encoded).toMatchObject({ writeConnections: [0, 2], readConnections: [2, 0] });
    const message: ServerMessage = { type: 'run-events', requestId: 'r1', runId: 'run-1', ...encoded };
    const received = ServerMessageSchema.parse(JSON.parse(JSON.stringify(message)));
    if (received.type !== 'run-events') throw new Error('wrong type');
    expect(decodeBatch(received)).toEqual(socketed);
    expect(encodeBatch(batch)).not.toHaveProperty('writeConnections'); // a single Redis's batch: as before
  });

  it('an empty batch stays empty', () => {
    const empty: ProbeBatch = { writes: [], reads: [], outcomes: [] };
    expect(encodeBatch(empty)).toEqual({ writes: [], reads: [], outcomes: [] });
    expect(decodeBatch(encodeBatch(empty))).toEqual(empty);
  });
});

describe('ClientMessageSchema', () => {
  it('accepts a run and a cancel', () => {
    expect(issues(ClientMessageSchema, { type: 'run', requestId: 'a1', spec: { command: 'PING', n: 10, modes: ['pipeline'] } })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'cancel', requestId: 'a1' })).toBe('ok');
  });

  it('accepts a sweep, and refuses one that breaks the sweep bounds, with their messages', () => {
    expect(issues(ClientMessageSchema, { type: 'sweep', requestId: 'a1', spec: { command: 'PING', depths: [1, 2, 4], perPoint: 100 } })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'sweep', requestId: 'a1', spec: { command: 'PING', depths: [4, 2], perPoint: 100 } })).toBe(
      'spec.depths: depths must be increasing, each once',
    );
  });

  it('refuses an unknown type', () => {
    expect(issues(ClientMessageSchema, { type: 'flush', requestId: 'a1' })).toBe("type: Invalid discriminator value. Expected 'run' | 'sweep' | 'target' | 'cancel' | 'follow-start' | 'follow-stop' | 'follow-display' | 'follow-join' | 'observe-open' | 'observe-close' | 'observe-delay' | 'observe-monitor' | 'observe-stop' | 'observe-watch' | 'observe-run-client'");
  });

  it('refuses a missing or empty requestId', () => {
    expect(issues(ClientMessageSchema, { type: 'cancel' })).toBe('requestId: Invalid input: expected string, received undefined');
    expect(issues(ClientMessageSchema, { type: 'cancel', requestId: '' })).toBe('requestId: Too small: expected string to have >=1 characters');
    expect(issues(ClientMessageSchema, { type: 'cancel', requestId: 'x'.repeat(65) })).toBe(
      'requestId: Too big: expected string to have <=64 characters',
    );
  });

  it('refuses a run whose spec breaks the run-request bounds, with their messages', () => {
    expect(issues(ClientMessageSchema, { type: 'run', requestId: 'a1', spec: { command: 'PING', n: 0, modes: [] } })).toBe(
      'spec.n: n must be at least 1; spec.modes: choose at least one mode',
    );
  });

  it('refuses a run without a spec, and non-objects', () => {
    expect(issues(ClientMessageSchema, { type: 'run', requestId: 'a1' })).toBe('spec: Invalid input: expected object, received undefined');
    expect(ClientMessageSchema.safeParse('run').success).toBe(false);
    expect(ClientMessageSchema.safeParse(null).success).toBe(false);
  });
});

describe('ServerMessageSchema', () => {
  const events = { type: 'run-events', requestId: 'r1', runId: 'run-1', writes: [0, 14, 1], reads: [5, 7, 1], outcomes: ['PONG'] };

  it('accepts run-events with whole triples', () => {
    expect(issues(ServerMessageSchema, events)).toBe('ok');
  });

  it.each([1, 2, 4, 5])('refuses a writes array of length %i', (length) => {
    const writes = Array.from({ length }, (_, i) => i);
    expect(issues(ServerMessageSchema, { ...events, writes })).toBe('writes: length must be a multiple of 3');
  });

  it('refuses a reads array of length 4', () => {
    expect(issues(ServerMessageSchema, { ...events, reads: [5, 7, 1, 9] })).toBe('reads: length must be a multiple of 3');
  });

  it('refuses negative numbers in the triples', () => {
    expect(issues(ServerMessageSchema, { ...events, writes: [0, -14, 1] })).toBe('writes.1: Too small: expected number to be >=0');
  });

  it('refuses an outcome that is neither a reply value nor {e}', () => {
    expect(ServerMessageSchema.safeParse({ ...events, outcomes: [{ error: 'x' }] }).success).toBe(false);
    expect(ServerMessageSchema.safeParse({ ...events, outcomes: [true] }).success).toBe(false);
  });

  it('accepts a run-start message, which is itself a trace header', () => {
    const start = { type: 'run-start', requestId: 'r1', ...HEADER };
    expect(issues(ServerMessageSchema, start)).toBe('ok');
    expect(new TraceBuilder(ServerMessageSchema.parse(start) as TraceHeader).run).toEqual(HEADER.run);
  });

  it('refuses a queued message with a negative position', () => {
    expect(issues(ServerMessageSchema, { type: 'queued', requestId: 'r1', position: -1 })).toBe('position: Too small: expected number to be >=0');
  });
});

describe('size on the wire of a 10,000-command sequential PING run', () => {
  // Realistic probe events: one 14-byte write ("*1\r\n$4\r\nPING\r\n") and one 7-byte read ("+PONG\r\n")
  // per command, about 100 µs per round trip, so times reach 7 digits (~1,000,000 µs). The executor
  // flushes every 50 ms, i.e. about 500 commands per run-events message.
  const N = 10_000;
  const PER_MESSAGE = 500;
  const batches: ProbeBatch[] = [];
  for (let first = 0; first < N; first += PER_MESSAGE) {
    const batch: ProbeBatch = { writes: [], reads: [], outcomes: [] };
    for (let i = first; i < first + PER_MESSAGE; i++) {
      const sentUs = i * 100 + (i % 7); // a little irregularity, so the digits vary
      batch.writes.push({ atUs: sentUs, bytes: 14, commands: 1 });
      batch.reads.push({ atUs: sentUs + 55 + (i % 13), bytes: 7, replies: 1 });
      batch.outcomes.push({ reply: 'PONG' });
    }
    batches.push(batch);
  }
  const frames = batches.map((batch) =>
    JSON.stringify({ type: 'run-events', requestId: 'req-0001', runId: HEADER.run.id, ...encodeBatch(batch) } satisfies ServerMessage),
  );

  it('is at most 40 bytes of JSON per command', () => {
    // Per command: "9999999,14,1," (13) for the write, the same for the read, and "\"PONG\"," (7):
    // 33 bytes, plus under 0.3 bytes of envelope per command. 40 leaves room, and fails for any
    // encoding that spells out field names (e.g. {"atUs":…,"bytes":…,"commands":…} is 40+ per event).
    const bytes = frames.reduce((sum, frame) => sum + new TextEncoder().encode(frame).length, 0);
    const perCommand = bytes / N;
    expect(perCommand).toBeLessThanOrEqual(40);
    expect(perCommand).toBeGreaterThan(25); // sanity: every event really is in there
  });

  it('the frames rebuild the complete trace in a browser-side TraceBuilder', () => {
    const browser = new TraceBuilder(HEADER);
    for (const frame of frames) {
      const message = ServerMessageSchema.parse(JSON.parse(frame));
      if (message.type !== 'run-events') throw new Error('wrong type');
      browser.addBatch(decodeBatch(message));
    }
    const doc = browser.finish({ reads: N, writes: N, execUs: 4210, source: 'redis-info', exclusive: true });
    expect(doc.commands).toHaveLength(N);
    expect(doc.commands[N - 1]).toEqual({ index: N - 1, sentUs: 999_900 + ((N - 1) % 7), repliedUs: 999_900 + ((N - 1) % 7) + 55 + ((N - 1) % 13), reply: 'PONG' });
    expect(doc.counts.client).toMatchObject({ writes: N, reads: N, bytesOut: 14 * N, bytesIn: 7 * N });
  });
});

describe('parseServerFrame', () => {
  const events = { type: 'run-events', requestId: 'r1', runId: 'run-1', writes: [0, 14, 2], reads: [40, 14, 2], outcomes: ['PONG', { e: 'ERR x' }, 3, null] };

  it('reads a run-events frame exactly as the schema does', () => {
    const text = JSON.stringify(events);
    expect(parseServerFrame(text)).toEqual(parseFrame(ServerMessageSchema, text));
    expect(parseServerFrame(text)).toEqual({ value: events });
  });

  it('sends an outcome that is not plain, and the rest of the frame, through the schema', () => {
    const badOutcome = JSON.stringify({ ...events, outcomes: ['PONG', { e: 5 }] });
    expect(parseServerFrame(badOutcome)).toEqual(parseFrame(ServerMessageSchema, badOutcome));
    expect(parseServerFrame(badOutcome)).toMatchObject({ problem: { kind: 'schema' } });
    const badRest = JSON.stringify({ ...events, writes: [0, 14] });
    expect(parseServerFrame(badRest)).toEqual({ problem: { kind: 'schema', issues: 'writes: length must be a multiple of 3' } });
  });

  it('reads other frames, and refuses non-JSON and binary frames, as parseFrame does', () => {
    const hello = JSON.stringify({ type: 'queued', requestId: 'r1', position: 2 });
    expect(parseServerFrame(hello)).toEqual({ value: { type: 'queued', requestId: 'r1', position: 2 } });
    expect(parseServerFrame('{nope')).toEqual({ problem: { kind: 'json' } });
    expect(parseServerFrame(null)).toEqual({ problem: { kind: 'binary' } });
  });
});

describe('decodeBatch', () => {
  it('gives a reply equal to the one before as the same outcome object', () => {
    const { outcomes } = decodeBatch({ writes: [], reads: [], outcomes: ['PONG', 'PONG', { e: 'x' }, { e: 'x' }, 1, 'PONG'] });
    expect(outcomes).toEqual([{ reply: 'PONG' }, { reply: 'PONG' }, { error: 'x' }, { error: 'x' }, { reply: 1 }, { reply: 'PONG' }]);
    expect(outcomes[1]).toBe(outcomes[0]);
    expect(outcomes[3]).toBe(outcomes[2]);
    expect(outcomes[5]).not.toBe(outcomes[0]);
  });
});

describe('cancelled (v4: names the run cut short)', () => {
  it('accepts the run a Cancel cut short, and a cancelled request without one, as backends before v4 sent it', () => {
    expect(ServerMessageSchema.parse({ type: 'cancelled', requestId: 'r1', runId: 'run-1' })).toEqual({ type: 'cancelled', requestId: 'r1', runId: 'run-1' });
    expect(ServerMessageSchema.parse({ type: 'cancelled', requestId: 'r1' })).toEqual({ type: 'cancelled', requestId: 'r1' });
  });

  it('refuses a runId that is not a string', () => {
    expect(ServerMessageSchema.safeParse({ type: 'cancelled', requestId: 'r1', runId: 7 }).success).toBe(false);
  });
});

describe('targets', () => {
  const issues = (value: unknown) => {
    const parsed = ClientMessageSchema.safeParse(value);
    return parsed.success ? 'accepted' : describeIssues(parsed.error);
  };

  it('a run or sweep may name single or cluster; anything else is refused in words', () => {
    const spec = { command: 'SET', n: 10, modes: ['pipeline'] };
    expect(issues({ type: 'run', requestId: 'r', spec, target: 'cluster' })).toBe('accepted');
    expect(issues({ type: 'run', requestId: 'r', spec })).toBe('accepted');
    expect(issues({ type: 'run', requestId: 'r', spec, target: 'Cluster' })).toBe("target: must be 'single' (the private Redis) or 'cluster' (the private Redis Cluster)");
    expect(issues({ type: 'target', target: 'mars' })).toBe("target: must be 'single' (the private Redis) or 'cluster' (the private Redis Cluster)");
    expect(issues({ type: 'target' })).toBe("target: must be 'single' (the private Redis) or 'cluster' (the private Redis Cluster)");
  });

  it('a run-end\'s command places: slots of the cluster, sockets by index, anything else refused', () => {
    const end = { type: 'run-end', requestId: 'r', runId: 'x', server: { reads: 1, writes: 1, execUs: 1, source: 'redis-info', exclusive: true }, doneUs: 1 };
    expect(ServerMessageSchema.safeParse({ ...end, commandSlots: [1, null], commandConnections: [0, 1] }).success).toBe(true);
    expect(ServerMessageSchema.safeParse({ ...end, commandSlots: [16384], commandConnections: [0] }).success).toBe(false);
    expect(ServerMessageSchema.safeParse({ ...end, commandSlots: [1], commandConnections: [-1] }).success).toBe(false);
  });
});
