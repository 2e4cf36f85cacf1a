// The attendee's and the presenter's follow stores, fed the backend's messages as the channel passes them.
import { describe, expect, it } from 'vitest';
import { encodeBatch, ServerMessageSchema, type ClientMessage, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { header } from '../test-support/trace-fixtures.ts';
import type { ChannelPort, LiveListener } from './live-channel.ts';
import { FollowShareStore } from './follow-share-store.ts';
import { FollowStore } from './follow-store.ts';

const CODE = 'AbCdEfGhIjKlMnOpQrSt_-';
const server = { reads: 1, writes: 1, execUs: 2, source: 'redis-info' as const, exclusive: true };
const msg = (m: unknown): ServerMessage => ServerMessageSchema.parse(m);

function channel(open = true) {
  const sent: ClientMessage[] = [];
  const listeners = new Set<LiveListener>();
  const port: ChannelPort = {
    isOpen: open,
    send: (m) => (sent.push(m), true),
    listen: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  const deliver = (m: unknown) => listeners.forEach((l) => l.onMessage(msg(m)));
  const connection = (status: 'open' | 'closed') => listeners.forEach((l) => l.onConnection(status === 'open' ? { status } : { status, attempt: 1, retryAt: 0, reason: 'gone' }));
  return { port, sent, deliver, connection };
}

const scheduler = () => new FrameScheduler(() => 0, () => {});

function presenterRun(requestId: string, runId: string) {
  return [
    { type: 'follow-request', requestId, spec: { command: 'INCR', n: 1, modes: ['sequential'] } },
    { type: 'queued', requestId, position: 0 },
    { type: 'run-start', requestId, ...header('sequential', 1, 'INCR', runId) },
    { type: 'run-events', requestId, runId, ...encodeBatch({ writes: [{ atUs: 5, bytes: 40, commands: 1 }], reads: [{ atUs: 50, bytes: 4, replies: 1 }], outcomes: [{ reply: 1 }] }) },
    { type: 'run-end', requestId, runId, server, doneUs: 50 },
    { type: 'request-done', requestId },
  ];
}

describe('FollowStore', () => {
  it('joins when the connection opens, and again after it was lost', () => {
    const c = channel(false);
    const store = new FollowStore(c.port, CODE, scheduler());
    store.attach();
    expect(c.sent).toEqual([]);
    c.connection('open');
    expect(c.sent).toEqual([{ type: 'follow-join', code: CODE }]);
    c.connection('closed');
    expect(store.getSnapshot()).toMatchObject({ status: 'joining', message: expect.stringMatching(/connection to the backend was lost/) });
    c.connection('open');
    expect(c.sent).toHaveLength(2);
  });

  it('adopts the presenter’s requests and builds their traces; a new request replaces them', () => {
    const c = channel();
    const store = new FollowStore(c.port, CODE, scheduler());
    store.attach();
    c.deliver({ type: 'follow-joined', replay: 'none' });
    expect(store.getSnapshot().status).toBe('following');
    const [request, queued, start, ...rest] = presenterRun('req-a', 'run-a');
    [request, queued, start].forEach(c.deliver);
    expect(store.getSnapshot().active).toMatchObject({ requestId: 'req-a', position: 0 });
    rest.forEach(c.deliver);
    expect(store.getSnapshot().active).toBeNull();
    expect(store.getSnapshot().traces.map((doc) => doc.run.id)).toEqual(['run-a']);
    presenterRun('req-b', 'run-b').forEach(c.deliver);
    expect(store.getSnapshot().traces.map((doc) => doc.run.id)).toEqual(['run-b']);
  });

  it('ignores run messages of requests it was not told of', () => {
    const c = channel();
    const store = new FollowStore(c.port, CODE, scheduler());
    store.attach();
    presenterRun('req-a', 'run-a').slice(1).forEach(c.deliver);
    expect(store.getSnapshot().traces).toEqual([]);
  });

  it('keeps the display state, and says when the replay was too big, the code unknown or the session over', () => {
    const c = channel();
    const store = new FollowStore(c.port, CODE, scheduler());
    store.attach();
    c.deliver({ type: 'follow-joined', replay: 'too-big' });
    expect(store.getSnapshot().message).toMatch(/too big to replay/);
    const display = { view: 'run', scale: 'shared', positionUs: 5, playing: false, speed: 0.5, keys: {} };
    c.deliver({ type: 'follow-display', display });
    expect(store.getSnapshot().display).toEqual(display);
    c.deliver({ type: 'follow-ended', reason: 'stopped', message: 'The presenter stopped sharing.' });
    expect(store.getSnapshot()).toMatchObject({ status: 'ended', message: 'The presenter stopped sharing.' });
    c.connection('open');
    expect(c.sent.filter((m) => m.type === 'follow-join')).toHaveLength(1); // over: no new join

    const d = channel();
    const refused = new FollowStore(d.port, CODE, scheduler());
    refused.attach();
    d.deliver({ type: 'follow-error', message: 'No follow session has this code.' });
    expect(refused.getSnapshot()).toMatchObject({ status: 'refused', message: 'No follow session has this code.' });
  });
});

describe('FollowShareStore', () => {
  it('starts sharing, counts followers, sends display state only while sharing, and stops', () => {
    const c = channel();
    const store = new FollowShareStore(c.port, scheduler());
    store.attach();
    const display = { view: 'run' as const, scale: 'shared' as const, positionUs: null, playing: false, speed: 1, keys: {} };
    expect(store.sendDisplay(display)).toBe(false);
    store.share();
    expect(c.sent).toEqual([{ type: 'follow-start' }]);
    c.deliver({ type: 'follow-started', code: CODE, maxFollowers: 200 });
    c.deliver({ type: 'follow-count', followers: 3 });
    expect(store.getSnapshot()).toMatchObject({ status: 'sharing', code: CODE, followers: 3, maxFollowers: 200 });
    expect(store.sendDisplay(display)).toBe(true);
    store.stop();
    expect(c.sent.at(-1)).toEqual({ type: 'follow-stop' });
    expect(store.getSnapshot()).toMatchObject({ status: 'off', code: null });
  });

  it('says why sharing could not start, or stopped with the connection', () => {
    const c = channel();
    const store = new FollowShareStore(c.port, scheduler());
    store.attach();
    store.share();
    c.deliver({ type: 'follow-error', message: 'Too many presenters are sharing.' });
    expect(store.getSnapshot()).toMatchObject({ status: 'off', message: 'Too many presenters are sharing.' });
    store.share();
    c.deliver({ type: 'follow-started', code: CODE, maxFollowers: 200 });
    c.connection('closed');
    expect(store.getSnapshot()).toMatchObject({ status: 'off', message: expect.stringMatching(/^Sharing stopped: the connection/) });
  });
});
