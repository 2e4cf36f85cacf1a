import { describe, expect, it } from 'vitest';
import { ClientMessageSchema, ServerMessageSchema } from './live-protocol.ts';

describe('the observe messages', () => {
  it('take a delay within bounds and at most six connections to draw', () => {
    expect(ClientMessageSchema.safeParse({ type: 'observe-open', rttMs: 80, jitterMs: 0 }).success).toBe(true);
    expect(ClientMessageSchema.safeParse({ type: 'observe-open', rttMs: -1, jitterMs: 0 }).success).toBe(false);
    expect(ClientMessageSchema.safeParse({ type: 'observe-open', rttMs: 20_000, jitterMs: 0 }).success).toBe(false);
    expect(ClientMessageSchema.safeParse({ type: 'observe-watch', session: 's', connections: [1, 2, 3, 4, 5, 6, 7] }).success).toBe(false);
    expect(ClientMessageSchema.safeParse({ type: 'observe-run-client', clients: ['redis-py-transaction'], n: 10 }).success).toBe(true);
    // Only the bundled clients: nothing else can be run.
    expect(ClientMessageSchema.safeParse({ type: 'observe-run-client', clients: ['rm -rf'], n: 10 }).success).toBe(false);
  });

  it('a status without a session is valid; a trace must be a trace', () => {
    const status = { open: false, target: '127.0.0.1:6379', configuredPort: null, rttMs: 0, jitterMs: 0, hop: null, measuringHop: false, monitor: false, session: null,
      clientRunning: null, clientMessage: null, lastRun: null, error: null };
    expect(ServerMessageSchema.safeParse({ type: 'observe-status', status }).success).toBe(true);
    expect(ServerMessageSchema.safeParse({ type: 'observe-trace', session: 's', connection: 1, trace: {} }).success).toBe(false);
  });
});
