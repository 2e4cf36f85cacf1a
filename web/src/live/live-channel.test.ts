import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import type { ConnectionState } from './live-client.ts';
import { FakeSocket } from '../test-support/fake-socket.ts';
import { LiveChannel, newRequestId, type LiveListener } from './live-channel.ts';


const redis = { up: true, version: '7.2.4', embedded: true, address: '127.0.0.1:6390' };

/** A listener that writes down what it hears, tagged with its name. */
function recorder(name: string, heard: string[]): LiveListener {
  return {
    onMessage: (m) => heard.push(`${name} ${m.type}`),
    onConnection: (s: ConnectionState) => heard.push(`${name} ${s.status}`),
    onInvalidMessage: (problem) => heard.push(`${name} invalid: ${problem}`),
  };
}

function setup() {
  const sockets: FakeSocket[] = [];
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => frames.push(cb), () => {});
  const channel = new LiveChannel(scheduler, () => {
    const socket = new FakeSocket();
    sockets.push(socket);
    return socket;
  });
  let published = 0;
  channel.subscribe(() => published++);
  const frame = () => frames.splice(0).forEach((f) => f());
  return { channel, sockets, frame, published: () => published };
}

describe('LiveChannel', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('passes every message to every listener, in the order they started listening', () => {
    const { channel, sockets } = setup();
    const heard: string[] = [];
    channel.listen(recorder('runs', heard));
    channel.listen(recorder('sweeps', heard));
    channel.start('ws://test/live');
    sockets[0]!.open();
    heard.length = 0;
    sockets[0]!.receive({ type: 'queued', requestId: 'r1', position: 0 });
    sockets[0]!.receive({ type: 'request-done', requestId: 'r1' });
    sockets[0]!.receive('not json');
    expect(heard).toEqual([
      'runs queued', 'sweeps queued',
      'runs request-done', 'sweeps request-done',
      'runs invalid: The backend sent a message that is not valid JSON.', 'sweeps invalid: The backend sent a message that is not valid JSON.',
    ]);
  });

  it('tells every listener of each connection change, and keeps the state for the banner', () => {
    const { channel, sockets, frame } = setup();
    const heard: string[] = [];
    channel.listen(recorder('runs', heard));
    channel.listen(recorder('sweeps', heard));
    channel.start('ws://test/live');
    sockets[0]!.open();
    sockets[0]!.drop();
    expect(heard).toEqual(['runs connecting', 'sweeps connecting', 'runs open', 'sweeps open', 'runs closed', 'sweeps closed']);
    frame();
    expect(channel.getSnapshot().connection).toMatchObject({ status: 'closed', attempt: 1, reason: 'the live connection closed (code 1006)' });
    vi.advanceTimersByTime(10_000);
    expect(sockets).toHaveLength(2);
    expect(heard.slice(-2)).toEqual(['runs connecting', 'sweeps connecting']);
  });

  it('stops telling a listener that unsubscribed, and still tells the others', () => {
    const { channel, sockets } = setup();
    const heard: string[] = [];
    const stop = channel.listen(recorder('runs', heard));
    channel.listen(recorder('sweeps', heard));
    channel.start('ws://test/live');
    stop();
    heard.length = 0;
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'request-done', requestId: 'r1' });
    expect(heard).toEqual(['sweeps open', 'sweeps request-done']);
  });

  it('keeps hello and redis-status as its status, published once per frame', () => {
    const { channel, sockets, frame, published } = setup();
    expect(channel.getSnapshot()).toEqual({ connection: { status: 'connecting', attempt: 1 }, backendVersion: null, redis: null });
    channel.start('ws://test/live');
    sockets[0]!.open();
    sockets[0]!.receive({ type: 'hello', version: '0.9.0', redis });
    sockets[0]!.receive({ type: 'redis-status', redis: { ...redis, up: false, message: 'refused' } });
    expect(published()).toBe(0);
    frame();
    expect(published()).toBe(1);
    expect(channel.getSnapshot()).toEqual({ connection: { status: 'open' }, backendVersion: '0.9.0', redis: { ...redis, up: false, message: 'refused' } });
  });

  it('sends only while open; starts one socket however often it is started; stop closes it', () => {
    const { channel, sockets } = setup();
    expect(channel.isOpen).toBe(false);
    expect(channel.send({ type: 'cancel', requestId: 'r1' })).toBe(false);
    channel.start('ws://test/live');
    channel.start('ws://test/live');
    expect(sockets).toHaveLength(1);
    expect(channel.send({ type: 'cancel', requestId: 'r1' })).toBe(false);
    sockets[0]!.open();
    expect(channel.isOpen).toBe(true);
    expect(channel.send({ type: 'cancel', requestId: 'r1' })).toBe(true);
    expect(sockets[0]!.sent).toEqual(['{"type":"cancel","requestId":"r1"}']);
    channel.stop();
    expect(sockets[0]!.readyState).toBe(3);
    expect(channel.isOpen).toBe(false);
  });
});

describe('newRequestId', () => {
  it('starts with the kind of request and fits the protocol’s 64 characters', () => {
    expect(newRequestId('req')).toMatch(/^req-.+/);
    expect(newRequestId('sweep')).toMatch(/^sweep-.+/);
    expect(newRequestId('sweep').length).toBeLessThanOrEqual(64);
    expect(newRequestId('req')).not.toBe(newRequestId('req'));
  });
});
