// Follow mode's messages, as both ends validate them in live-protocol.ts's unions: what is accepted, and
// that the display state a presenter's page may send is capped (keys, their names and lengths, speed).
import { describe, expect, it } from 'vitest';
import { ClientMessageSchema, ServerMessageSchema } from './live-protocol.ts';
import { FOLLOW_CODE_PATTERN, MAX_DISPLAY_KEYS, MAX_DISPLAY_VALUE_CHARS, type FollowDisplay } from './follow-protocol.ts';
import { describeIssues } from '../format/trace-io.ts';

function issues(schema: typeof ClientMessageSchema | typeof ServerMessageSchema, value: unknown): string {
  const result = schema.safeParse(value);
  return result.success ? 'ok' : describeIssues(result.error);
}

const DISPLAY: FollowDisplay = { view: 'run', scale: 'shared', positionUs: 1234.5, playing: true, speed: 0.01, keys: { zoom: '0-5000', tour: '3' } };

describe('follow messages from the browser', () => {
  it('accepts start, stop, join and a display update', () => {
    expect(issues(ClientMessageSchema, { type: 'follow-start' })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'follow-stop' })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'follow-join', code: 'AAAAAAAAAAAAAAAAAAAAAA' })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: DISPLAY })).toBe('ok');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, positionUs: null, playing: false } })).toBe('ok');
  });

  it('refuses a join without a code, or with an empty or overlong one', () => {
    expect(issues(ClientMessageSchema, { type: 'follow-join' })).toBe('code: Invalid input: expected string, received undefined');
    expect(issues(ClientMessageSchema, { type: 'follow-join', code: '' })).toBe('code: Too small: expected string to have >=1 characters');
    expect(issues(ClientMessageSchema, { type: 'follow-join', code: 'x'.repeat(65) })).toBe('code: Too big: expected string to have <=64 characters');
  });

  it('caps the display keys: how many, their names, the length of each value', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_DISPLAY_KEYS + 1 }, (_, i) => [`k${i}`, '1']));
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, keys: many } })).toBe(`display.keys: at most ${MAX_DISPLAY_KEYS} display keys`);
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, keys: { zoom: 'x'.repeat(MAX_DISPLAY_VALUE_CHARS + 1) } } })).toBe(
      `display.keys.zoom: Too big: expected string to have <=${MAX_DISPLAY_VALUE_CHARS} characters`);
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, keys: { '<script>': '1' } } })).toBe('display.keys.<script>: Invalid key in record');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, keys: { zoom: 5 } } })).toMatch(/^display\.keys\.zoom: Invalid input: expected string/);
  });

  it('refuses an impossible playhead, speed or view', () => {
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, positionUs: -1 } })).toBe('display.positionUs: positionUs must be at least 0');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, speed: 0 } })).toBe('display.speed: speed must be at least 0.001');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, speed: 2 } })).toBe('display.speed: speed must be at most 1');
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, view: 'admin' } })).toMatch(/^display\.view: Invalid option/);
    expect(issues(ClientMessageSchema, { type: 'follow-display', display: { ...DISPLAY, playing: 'yes' } })).toMatch(/^display\.playing: Invalid input: expected boolean/);
  });
});

describe('follow messages from the server', () => {
  it('accepts what the server sends presenters and followers', () => {
    expect(issues(ServerMessageSchema, { type: 'follow-started', code: 'AAAAAAAAAAAAAAAAAAAAAA', maxFollowers: 200 })).toBe('ok');
    expect(issues(ServerMessageSchema, { type: 'follow-count', followers: 3 })).toBe('ok');
    for (const replay of ['none', 'complete', 'too-big']) expect(issues(ServerMessageSchema, { type: 'follow-joined', replay })).toBe('ok');
    expect(issues(ServerMessageSchema, { type: 'follow-request', requestId: 'req-1', spec: { command: 'PING', n: 10, modes: ['pipeline'] } })).toBe('ok');
    expect(issues(ServerMessageSchema, { type: 'follow-display', display: DISPLAY })).toBe('ok');
    expect(issues(ServerMessageSchema, { type: 'follow-ended', reason: 'presenter-left', message: 'The presenter left.' })).toBe('ok');
    expect(issues(ServerMessageSchema, { type: 'follow-error', message: 'No follow session has this code.' })).toBe('ok');
  });

  it('refuses an unknown end reason and a follow-request with a bad spec', () => {
    expect(issues(ServerMessageSchema, { type: 'follow-ended', reason: 'bored', message: '' })).toMatch(/^reason: Invalid option/);
    expect(issues(ServerMessageSchema, { type: 'follow-request', requestId: 'req-1', spec: { command: 'PING', n: 0, modes: ['pipeline'] } })).toMatch(/^spec\.n:/);
  });
});

describe('FOLLOW_CODE_PATTERN', () => {
  it('is 22 base64url characters: 128 bits', () => {
    expect(FOLLOW_CODE_PATTERN.test('_____________________w' /* 16 bytes of 0xff */)).toBe(true);
    expect(FOLLOW_CODE_PATTERN.test('AAAA')).toBe(false);
    expect(FOLLOW_CODE_PATTERN.test('AAAAAAAAAAAAAAAAAAAA+/')).toBe(false);
  });
});
