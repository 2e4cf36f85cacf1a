import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveClient, backoffDelayMs, liveUrl, parseServerMessage, type ConnectionState } from './live-client.ts';
import { FakeSocket } from '../test-support/fake-socket.ts';


describe('liveUrl and backoff', () => {
  it('uses the page origin and ws/wss by page protocol', () => {
    expect(liveUrl({ protocol: 'http:', host: '127.0.0.1:7380' })).toBe('ws://127.0.0.1:7380/live');
    expect(liveUrl({ protocol: 'https:', host: 'demo.example' })).toBe('wss://demo.example/live');
    // A follower's page names its session's code, so the backend counts it among that session's followers.
    const code = 'AbCdEfGhIjKlMnOpQrStUv';
    expect(liveUrl({ protocol: 'http:', host: '10.0.0.5:7380', search: `?follow=${code}` })).toBe(`ws://10.0.0.5:7380/live?follow=${code}`);
    expect(liveUrl({ protocol: 'http:', host: '10.0.0.5:7380', search: '?follow=not-a-code' })).toBe('ws://10.0.0.5:7380/live');
  });
  it('doubles from 0.5 s up to 10 s, with ±20 % jitter', () => {
    expect(backoffDelayMs(1, () => 0.5)).toBe(500);
    expect(backoffDelayMs(2, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(10, () => 0.5)).toBe(10_000);
    expect(backoffDelayMs(1, () => 0)).toBe(400);
    expect(backoffDelayMs(1, () => 1)).toBe(600);
  });
});

describe('parseServerMessage', () => {
  it('accepts valid messages and explains invalid ones', () => {
    expect(parseServerMessage('{"type":"request-done","requestId":"r1"}')).toEqual({ message: { type: 'request-done', requestId: 'r1' } });
    expect(parseServerMessage('nope')).toEqual({ problem: 'The backend sent a message that is not valid JSON.' });
    expect(parseServerMessage('{"type":"queued","requestId":"r1","position":-1}')).toMatchObject({ problem: expect.stringMatching(/^The backend sent an invalid message: position/) });
    expect(parseServerMessage('{"type":"surprise"}')).toMatchObject({ problem: expect.stringMatching(/invalid message/) });
    expect(parseServerMessage(new ArrayBuffer(2))).toMatchObject({ problem: expect.stringMatching(/binary/) });
  });
});

describe('LiveClient', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports states, passes valid messages on, reports invalid ones, and reconnects with backoff', () => {
    const sockets: FakeSocket[] = [];
    const states: ConnectionState['status'][] = [];
    const messages: unknown[] = [];
    const problems: string[] = [];
    const client = new LiveClient(
      'ws://x/live',
      { onConnection: (s) => states.push(s.status), onMessage: (m) => messages.push(m), onInvalidMessage: (p) => problems.push(p) },
      () => {
        const socket = new FakeSocket();
        sockets.push(socket);
        return socket;
      },
    );
    client.start();
    expect(client.send({ type: 'cancel', requestId: 'r' })).toBe(false);
    sockets[0]!.open();
    expect(client.send({ type: 'cancel', requestId: 'r' })).toBe(true);
    expect(sockets[0]!.sent).toEqual(['{"type":"cancel","requestId":"r"}']);
    sockets[0]!.receive('{"type":"cancelled","requestId":"r"}');
    sockets[0]!.receive('{"type":"cancelled"}');
    expect(messages).toHaveLength(1);
    expect(problems).toHaveLength(1);
    sockets[0]!.drop();
    expect(states).toEqual(['connecting', 'open', 'closed']);
    vi.advanceTimersByTime(700);
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    vi.advanceTimersByTime(700);
    expect(sockets).toHaveLength(2); // second wait is about 1 s
    vi.advanceTimersByTime(600);
    expect(sockets).toHaveLength(3);
    client.stop();
    sockets[2]!.drop();
    vi.advanceTimersByTime(20_000);
    expect(sockets).toHaveLength(3);
  });

  it('says why the backend closed the connection, and keeps backing off when it says try again later (1013)', () => {
    const sockets: FakeSocket[] = [];
    const states: ConnectionState[] = [];
    const client = new LiveClient('ws://x/live', { onConnection: (s) => states.push(s), onMessage: () => {}, onInvalidMessage: () => {} }, () => {
      const socket = new FakeSocket();
      sockets.push(socket);
      return socket;
    });
    const refuse = (i: number) => {
      sockets[i]!.open();
      sockets[i]!.drop(1013, 'Too many connections: at most 200 (--max-connections). Close other tabs or try later.');
    };
    client.start();
    refuse(0);
    expect(states.at(-1)).toMatchObject({
      status: 'closed', attempt: 2, reason: 'the backend closed the live connection: Too many connections: at most 200 (--max-connections). Close other tabs or try later.',
    });
    vi.advanceTimersByTime(1300);
    refuse(1);
    expect(states.at(-1)).toMatchObject({ status: 'closed', attempt: 3 }); // ~2 s next, not 0.5 s again
    vi.advanceTimersByTime(1500);
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1000);
    expect(sockets).toHaveLength(3);
    client.stop();
  });
});
