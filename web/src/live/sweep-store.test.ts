import { describe, expect, it } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { SweepSpecSchema } from '../../../trace/format/sweep-format.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { sweepDocument } from '../test-support/sweep-fixtures.ts';
import type { ChannelPort, LiveListener } from './live-channel.ts';
import { SweepStore } from './sweep-store.ts';

const spec = SweepSpecSchema.parse({ command: 'PING', depths: [1, 2], perPoint: 100, repeats: 1 });

function setup(open = true) {
  const sent: ClientMessage[] = [];
  const listeners = new Set<LiveListener>();
  const channel: Pick<ChannelPort, 'send' | 'listen'> = {
    send: (m) => (open ? (sent.push(m), true) : false),
    listen: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => frames.push(cb), () => {});
  const store = new SweepStore(channel, scheduler);
  const detach = store.attach();
  let published = 0;
  store.subscribe(() => published++);
  const deliver = (m: ServerMessage) => listeners.forEach((l) => l.onMessage(m));
  const frame = () => frames.splice(0).forEach((f) => f());
  return { store, sent, deliver, frame, listeners, detach, published: () => published };
}

describe('SweepStore', () => {
  it('sends a sweep, shows its points as they come and its document at the end, once per frame', () => {
    const { store, sent, deliver, frame, published } = setup();
    expect(store.run(spec)).toBe(true);
    expect(sent).toEqual([{ type: 'sweep', requestId: expect.stringMatching(/^sweep-/), spec }]);
    expect(store.run(spec)).toBe(false); // one sweep at a time
    const requestId = (sent[0] as { requestId: string }).requestId;
    deliver({ type: 'sweep-progress', requestId, tool: 'pipescope', depth: 1, repeat: 1, done: 1, total: 2, opsPerSec: 9_000 });
    deliver({ type: 'sweep-progress', requestId, tool: 'pipescope', depth: 2, repeat: 1, done: 2, total: 2, opsPerSec: 17_000 });
    frame();
    expect(published()).toBe(1);
    expect(store.getSnapshot().active?.ours.map((p) => p.depth)).toEqual([1, 2]);
    const doc = sweepDocument([1, 2], 100);
    deliver({ type: 'sweep-end', requestId, document: doc });
    deliver({ type: 'request-done', requestId });
    frame();
    expect(store.getSnapshot()).toMatchObject({ active: null, stopped: null, doc, source: 'live', message: null });
  });

  it('keeps a cancelled sweep’s points on screen and says so', () => {
    const { store, sent, deliver, frame } = setup();
    store.run(spec);
    const requestId = (sent[0] as { requestId: string }).requestId;
    deliver({ type: 'sweep-progress', requestId, tool: 'pipescope', depth: 1, repeat: 1, done: 1, total: 2, opsPerSec: 9_000 });
    store.cancel();
    expect(sent[1]).toEqual({ type: 'cancel', requestId });
    deliver({ type: 'cancelled', requestId });
    frame();
    const snap = store.getSnapshot();
    expect(snap.active).toBeNull();
    expect(snap.stopped?.ours).toEqual([{ depth: 1, opsPerSec: [9_000] }]);
    expect(snap.message?.kind).toBe('info');
  });

  it('reports a lost connection and a sweep it could not send', () => {
    const { store, listeners, frame } = setup();
    store.run(spec);
    listeners.forEach((l) => l.onConnection({ status: 'closed', attempt: 1, retryAt: 0, reason: 'x' }));
    frame();
    expect(store.getSnapshot().active).toBeNull();
    expect(store.getSnapshot().message?.text).toMatch(/closed during the sweep/);
    const offline = setup(false);
    expect(offline.store.run(spec)).toBe(false);
    expect(offline.store.getSnapshot().message?.text).toMatch(/Not connected/);
    expect(offline.store.getSnapshot().active).toBeNull();
  });

  it('stops hearing the socket when detached', () => {
    const { listeners, detach } = setup();
    expect(listeners.size).toBe(1);
    detach();
    expect(listeners.size).toBe(0);
  });
});
