import { describe, expect, it } from 'vitest';
import { encodeBatch, ServerMessageSchema, type ClientMessage, type ServerMessage } from '../../../trace/live-protocol.ts';
import { RunSpecSchema } from '../../../trace/run-request.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { header } from '../test-support/trace-fixtures.ts';
import type { ChannelPort, LiveListener } from './live-channel.ts';
import { RunStore } from './run-store.ts';

const spec = RunSpecSchema.parse({ command: 'INCR', n: 1, valueBytes: 0, modes: ['sequential'] });
const server = { reads: 1, writes: 1, execUs: 2, source: 'redis-info' as const, exclusive: true };
const msg = (m: ServerMessage): ServerMessage => ServerMessageSchema.parse(m);

function setup(open = true) {
  const sent: ClientMessage[] = [];
  const listeners = new Set<LiveListener>();
  const channel: ChannelPort = {
    isOpen: open,
    send: (m) => (open ? (sent.push(m), true) : false),
    listen: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const frames: (() => void)[] = [];
  const store = new RunStore(channel, new FrameScheduler((cb) => frames.push(cb), () => {}));
  const detach = store.attach();
  let published = 0;
  store.subscribe(() => published++);
  const deliver = (m: ServerMessage) => listeners.forEach((l) => l.onMessage(m));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, sent, listeners, deliver, frame, detach, published: () => published };
}

function oneRun(requestId: string): ServerMessage[] {
  return [
    msg({ type: 'run-start', requestId, ...header('sequential', 1, 'INCR', 'seq-1') }),
    msg({ type: 'run-events', requestId, runId: 'seq-1', ...encodeBatch({ writes: [{ atUs: 5, bytes: 40, commands: 1 }], reads: [{ atUs: 50, bytes: 4, replies: 1 }], outcomes: [{ reply: 1 }] }) }),
    msg({ type: 'run-end', requestId, runId: 'seq-1', server, doneUs: 50 }),
    msg({ type: 'request-done', requestId }),
  ];
}

describe('RunStore', () => {
  it('sends a run on the channel and shows its trace when it ends, publishing once per frame', () => {
    const { store, sent, deliver, frame, published } = setup();
    expect(store.run(spec)).toBe(true);
    expect(sent).toEqual([{ type: 'run', requestId: expect.stringMatching(/^req-/), spec }]);
    expect(store.run(spec)).toBe(false); // one request at a time
    expect(store.getSnapshot().active?.requestId).toBe((sent[0] as { requestId: string }).requestId);
    oneRun((sent[0] as { requestId: string }).requestId).forEach(deliver);
    expect(published()).toBe(0);
    frame();
    expect(published()).toBe(1);
    const snap = store.getSnapshot();
    expect(snap).toMatchObject({ active: null, tracesSource: 'live', message: null });
    expect(snap.traces.map((t) => t.run.id)).toEqual(['seq-1']);
  });

  it('does not send while the channel is closed', () => {
    const { store, sent } = setup(false);
    expect(store.run(spec)).toBe(false);
    expect(sent).toEqual([]);
    expect(store.getSnapshot().active).toBeNull();
  });

  it('cancels, and says so when the backend confirms', () => {
    const { store, sent, deliver, frame } = setup();
    store.run(spec);
    const requestId = (sent[0] as { requestId: string }).requestId;
    store.cancel();
    expect(sent[1]).toEqual({ type: 'cancel', requestId });
    expect(store.getSnapshot().active?.cancelling).toBe(true);
    deliver(msg({ type: 'cancelled', requestId }));
    frame();
    expect(store.getSnapshot()).toMatchObject({ active: null, message: { kind: 'info', text: 'Run cancelled.' } });
  });

  it('reports a lost connection, an invalid frame and a refused message on its message line', () => {
    const { store, listeners, deliver, frame } = setup();
    store.run(spec);
    listeners.forEach((l) => l.onConnection({ status: 'closed', attempt: 1, retryAt: 0, reason: 'x' }));
    frame();
    expect(store.getSnapshot().active).toBeNull();
    expect(store.getSnapshot().message?.text).toMatch(/closed during the run/);
    listeners.forEach((l) => l.onInvalidMessage?.('The backend sent a message that is not valid JSON.'));
    expect(store.getSnapshot().message).toEqual({ kind: 'error', text: 'The backend sent a message that is not valid JSON.' });
    deliver(msg({ type: 'error', message: 'unknown type' }));
    expect(store.getSnapshot().message).toEqual({ kind: 'error', text: 'The backend refused a message: unknown type' });
  });

  it('leaves hello and redis-status to the channel, and stops hearing it when detached', () => {
    const { deliver, frame, published, listeners, detach } = setup();
    deliver(msg({ type: 'hello', version: '0.9.0', redis: { up: true, embedded: true, address: '127.0.0.1:6390' } }));
    deliver(msg({ type: 'redis-status', redis: { up: false, embedded: true, address: '127.0.0.1:6390' } }));
    frame();
    expect(published()).toBe(0);
    expect(listeners.size).toBe(1);
    detach();
    expect(listeners.size).toBe(0);
  });
});
