import { describe, expect, it } from 'vitest';
import { encodeBatch, ServerMessageSchema, type ClientMessage, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { RunSpecSchema } from '../../../trace/format/run-request.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { header } from '../test-support/trace-fixtures.ts';
import type { ChannelPort, LiveListener } from './live-channel.ts';
import { RunStore } from './run-store.ts';
import type { ThrottleTimers } from './partial-trace-throttle.ts';

/** Timers the test moves by hand: `advance(ms)` runs what is due. */
function manualTimers() {
  let now = 0;
  const due: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  const timers: ThrottleTimers = {
    now: () => now,
    setTimeout: (run, ms) => {
      due.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id) => {
      const k = due.findIndex((d) => d.id === id);
      if (k >= 0) due.splice(k, 1);
    },
  };
  const advance = (ms: number) => {
    now += ms;
    for (let next = due.find((d) => d.at <= now); next; next = due.find((d) => d.at <= now)) {
      due.splice(due.indexOf(next), 1);
      next.run();
    }
  };
  return { timers, advance };
}

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
  const clock = manualTimers();
  const store = new RunStore(channel, new FrameScheduler((cb) => frames.push(cb), () => {}), clock.timers);
  const detach = store.attach();
  let published = 0;
  store.subscribe(() => published++);
  const deliver = (m: ServerMessage) => listeners.forEach((l) => l.onMessage(m));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, sent, listeners, deliver, frame, detach, published: () => published, advance: clock.advance };
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

  it('names the runs on screen the backend keeps for links, and forgets the names when they leave the screen', () => {
    const { store, sent, deliver, frame } = setup();
    store.run(spec);
    const requestId = (sent[0] as { requestId: string }).requestId;
    oneRun(requestId).forEach(deliver);
    const id = 'A'.repeat(21) + 'b';
    deliver(msg({ type: 'run-stored', requestId, runId: 'seq-1', storedId: id }));
    deliver(msg({ type: 'run-stored', requestId, runId: 'not-on-screen', storedId: 'B'.repeat(22) }));
    frame();
    expect([...store.getSnapshot().stored]).toEqual([['seq-1', id]]);
    // Another request's run replaces it: its name goes with it.
    store.run(spec);
    const next = (sent[1] as { requestId: string }).requestId;
    oneRun(next).map((m) => (m.type === 'run-start' ? msg({ ...m, run: { ...m.run, id: 'seq-2' } }) : 'runId' in m ? msg({ ...m, runId: 'seq-2' }) : m)).forEach(deliver);
    frame();
    expect(store.getSnapshot().traces.map((d) => d.run.id)).toEqual(['seq-2']);
    expect(store.getSnapshot().stored.size).toBe(0);
    // Runs shown from a link come with their names.
    store.showTraces(store.getSnapshot().traces, 'stored', new Map([['seq-2', id]]));
    frame();
    expect(store.getSnapshot()).toMatchObject({ tracesSource: 'stored', stored: new Map([['seq-2', id]]) });
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

  describe('live drawing', () => {
    const events = (requestId: string, runId: string, k: number) => msg({
      type: 'run-events', requestId, runId,
      ...encodeBatch({ writes: [{ atUs: 10 * k, bytes: 40, commands: 1 }], reads: [{ atUs: 10 * k + 5, bytes: 4, replies: 1 }], outcomes: [{ reply: k + 1 }] }),
    });
    const start = (requestId: string, runId: string, n = 3) => msg({ type: 'run-start', requestId, ...header('sequential', n, 'INCR', runId) });

    it('shows the run under way as it grows, after a short first delay, beside the request\'s finished runs', () => {
      const { store, sent, deliver, advance } = setup();
      store.run({ ...spec, n: 3, modes: ['sequential', 'pipeline'] });
      const id = (sent[0] as { requestId: string }).requestId;
      deliver(start(id, 'seq-1'));
      deliver(events(id, 'seq-1', 0));
      expect(store.getSnapshot().traces).toEqual([]); // not yet: a run that ends at once never flashes
      advance(100);
      const first = store.getSnapshot().traces;
      expect(first.map((d) => [d.run.id, d.commands.length, d.incomplete?.reason])).toEqual([['seq-1', 1, 'in-progress']]);
      deliver(events(id, 'seq-1', 1));
      advance(0); // small runs: as often as events come (the snapshot store publishes once per frame)
      expect(store.getSnapshot().traces.map((d) => d.commands.length)).toEqual([2]);
      deliver(events(id, 'seq-1', 2));
      deliver(msg({ type: 'run-end', requestId: id, runId: 'seq-1', server: { ...server, reads: 3, writes: 3 }, doneUs: 30 }));
      advance(1000);
      expect(store.getSnapshot().traces.map((d) => [d.run.id, d.incomplete])).toEqual([['seq-1', null]]);
      // The next mode's run draws beside it.
      deliver(start(id, 'pipe-1'));
      deliver(events(id, 'pipe-1', 0));
      advance(100);
      expect(store.getSnapshot().traces.map((d) => [d.run.id, d.incomplete?.reason ?? 'whole'])).toEqual([['seq-1', 'whole'], ['pipe-1', 'in-progress']]);
    });

    it('keeps a cancelled run, marked incomplete with how far it got, and says it was cancelled', () => {
      const { store, sent, deliver, advance } = setup();
      store.run({ ...spec, n: 3 });
      const id = (sent[0] as { requestId: string }).requestId;
      deliver(start(id, 'seq-1'));
      deliver(events(id, 'seq-1', 0));
      advance(100);
      store.cancel();
      deliver(msg({ type: 'cancelled', requestId: id, runId: 'seq-1' }));
      advance(1000);
      const snap = store.getSnapshot();
      expect(snap.active).toBeNull();
      expect(snap.message).toEqual({ kind: 'info', text: 'Run cancelled.' });
      expect(snap.traces.map((d) => d.incomplete)).toEqual([{ reason: 'cancelled', sent: 1, replied: 1, omitted: ['redis-info'] }]);
    });

    it('keeps what arrived when the connection drops mid-run, marked connection-lost', () => {
      const { store, sent, deliver, listeners } = setup();
      store.run({ ...spec, n: 3 });
      const id = (sent[0] as { requestId: string }).requestId;
      deliver(start(id, 'seq-1'));
      deliver(events(id, 'seq-1', 0));
      deliver(events(id, 'seq-1', 1));
      listeners.forEach((l) => l.onConnection({ status: 'closed', attempt: 1, retryAt: 0, reason: 'x' }));
      const snap = store.getSnapshot();
      expect(snap.traces.map((d) => [d.incomplete?.reason, d.commands.length])).toEqual([['connection-lost', 2]]);
      expect(snap.message?.kind).toBe('error');
    });

    it('rebuilds a large run\'s partial document at most every partialIntervalMs', () => {
      const { store, sent, deliver, advance } = setup();
      store.run({ ...spec, n: 100_000 });
      const id = (sent[0] as { requestId: string }).requestId;
      deliver(start(id, 'big', 100_000));
      const batch = (from: number, count: number) => msg({
        type: 'run-events', requestId: id, runId: 'big',
        ...encodeBatch({ writes: [{ atUs: from, bytes: 40 * count, commands: count }], reads: [{ atUs: from + 1, bytes: 4 * count, replies: count }], outcomes: Array.from({ length: count }, () => ({ reply: 'OK' })) }),
      });
      deliver(batch(0, 50_000));
      advance(100);
      const first = store.getSnapshot().traces[0];
      expect(first?.commands).toHaveLength(50_000);
      deliver(batch(10, 10_000));
      advance(100);
      expect(store.getSnapshot().traces[0]).toBe(first); // 60,000 commands: 150 ms between rebuilds
      advance(50);
      expect(store.getSnapshot().traces[0]?.commands).toHaveLength(60_000);
    });
  });
});
