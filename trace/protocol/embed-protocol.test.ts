import { describe, expect, it } from 'vitest';
import { errorMessage, heightMessage, hostMessage, readHostMessage, readyMessage, stateMessage } from './embed-protocol.ts';

const msg = (body: object) => ({ source: 'pipescope', version: 1, ...body });

describe('host → embed messages', () => {
  it('reads every command; load-trace {url} becomes {urls}', () => {
    expect(readHostMessage(msg({ type: 'ping' }))).toEqual({ ok: true, command: { type: 'ping' } });
    expect(readHostMessage(msg({ type: 'play' }))).toEqual({ ok: true, command: { type: 'play' } });
    expect(readHostMessage(msg({ type: 'pause' }))).toEqual({ ok: true, command: { type: 'pause' } });
    expect(readHostMessage(msg({ type: 'seek', t: 1500 }))).toEqual({ ok: true, command: { type: 'seek', t: 1500 } });
    expect(readHostMessage(msg({ type: 'load-trace', url: 'a.json' }))).toEqual({ ok: true, command: { type: 'load-trace', urls: ['a.json'] } });
    expect(readHostMessage(msg({ type: 'load-trace', urls: ['a.json', 'b.json'] }))).toEqual({ ok: true, command: { type: 'load-trace', urls: ['a.json', 'b.json'] } });
    expect(readHostMessage(msg({ type: 'set-theme', theme: 'dark' }))).toEqual({ ok: true, command: { type: 'set-theme', theme: 'dark' } });
  });

  it('round-trips the builder', () => {
    expect(readHostMessage(hostMessage({ type: 'seek', t: 3 }))).toEqual({ ok: true, command: { type: 'seek', t: 3 } });
  });

  it('refuses bad messages with a reason, never a throw', () => {
    const cases: [unknown, RegExp][] = [
      ['play', /must be an object/],
      [null, /must be an object/],
      [[1], /must be an object/],
      [{ type: 'play' }, /source: "pipescope"/],
      [{ source: 'pipescope', version: 2, type: 'play' }, /Unsupported protocol version 2/],
      [msg({ type: 'explode' }), /Unknown message type "explode"/],
      [msg({ type: 'seek', t: -1 }), /Invalid "seek" message \(t\)/],
      [msg({ type: 'seek', t: 'soon' }), /Invalid "seek" message/],
      [msg({ type: 'seek', t: Number.NaN }), /Invalid "seek" message/],
      [msg({ type: 'load-trace', urls: [] }), /Invalid "load-trace" message/],
      [msg({ type: 'load-trace' }), /Invalid "load-trace" message/],
      [msg({ type: 'set-theme', theme: 'neon' }), /Invalid "set-theme" message/],
    ];
    for (const [data, error] of cases) {
      const read = readHostMessage(data);
      expect(read.ok, JSON.stringify(data)).toBe(false);
      if (!read.ok) expect(read.error).toMatch(error);
    }
  });
});

describe('embed → host messages', () => {
  it('carry the envelope and their figures', () => {
    expect(readyMessage({ traces: 2, durationUs: 1234.5 })).toEqual({ source: 'pipescope', version: 1, type: 'ready', traces: 2, durationUs: 1234.5 });
    expect(heightMessage(480.2)).toEqual({ source: 'pipescope', version: 1, type: 'height', height: 481 });
    expect(stateMessage({ positionUs: null, playing: false, speed: 0.01, endUs: 900 })).toEqual({ source: 'pipescope', version: 1, type: 'state', positionUs: null, playing: false, speed: 0.01, endUs: 900 });
    expect(errorMessage('no')).toEqual({ source: 'pipescope', version: 1, type: 'error', message: 'no' });
  });
});
