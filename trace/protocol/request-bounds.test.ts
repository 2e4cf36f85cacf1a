// Every numeric field a client may send over the live protocol has bounds the backend can honour, and
// a value outside them is refused with a message that names the field and the bound: a run's spec, a
// sweep's spec, a follow session's display state. (The probe that found neighborRate: 1e-9 accepted
// — a rate no timer can wait for, which hung the runner before it started — found none of the others.)
import { describe, expect, it } from 'vitest';
import { ClientMessageSchema } from './live-protocol.ts';
import { describeIssues } from '../format/trace-io.ts';
import { MAX_ADDED_RTT_MS, MAX_CHUNK_PAUSE_MS, MAX_COMMANDS, MAX_JITTER_MS, MAX_NEIGHBOR_RATE, MAX_REPEATS, MAX_VALUE_BYTES, MIN_NEIGHBOR_RATE } from '../format/run-request.ts';
import { MAX_SWEEP_REPEATS } from '../format/sweep-format.ts';
import { MAX_POSITION_US, MIN_PLAYBACK_SPEED } from './follow-protocol.ts';

const RUN = { command: 'INCR', n: 100, modes: ['sequential', 'chunked'], chunk: 10 };
const SWEEP = { command: 'PING', depths: [1, 2, 4], perPoint: 1000, repeats: 1 };
const DISPLAY = { view: 'run', scale: 'shared', positionUs: null, playing: false, speed: 1, keys: {} };

const run = (fields: Record<string, unknown>) => ({ type: 'run', requestId: 'r', spec: { ...RUN, ...fields } });
const sweep = (fields: Record<string, unknown>) => ({ type: 'sweep', requestId: 's', spec: { ...SWEEP, ...fields } });
const display = (fields: Record<string, unknown>) => ({ type: 'follow-display', display: { ...DISPLAY, ...fields } });

const refusal = (message: unknown): string => {
  const parsed = ClientMessageSchema.safeParse(message);
  if (parsed.success) throw new Error(`accepted: ${JSON.stringify(message)}`);
  return describeIssues(parsed.error);
};

/** [field, message, the bound the message must state]. */
const CASES: [string, unknown, string][] = [
  ['n', run({ n: 0 }), '1'],
  ['n', run({ n: MAX_COMMANDS + 1 }), '1,000,000'],
  ['valueBytes', run({ command: 'SET', valueBytes: -1 }), '0'],
  ['valueBytes', run({ command: 'SET', valueBytes: MAX_VALUE_BYTES + 1 }), String(MAX_VALUE_BYTES)],
  ['rttMs', run({ rttMs: -0.5 }), '0'],
  ['rttMs', run({ rttMs: MAX_ADDED_RTT_MS + 1 }), String(MAX_ADDED_RTT_MS)],
  ['jitterMs', run({ jitterMs: -1 }), '0'],
  ['jitterMs', run({ jitterMs: MAX_JITTER_MS + 1 }), String(MAX_JITTER_MS)],
  ['repeats', run({ repeats: 0 }), '1'],
  ['repeats', run({ repeats: MAX_REPEATS + 1 }), String(MAX_REPEATS)],
  ['chunk', run({ chunk: 0 }), '1'],
  ['chunk', run({ chunk: MAX_COMMANDS + 1 }), '1,000,000'],
  ['chunkPauseMs', run({ chunkPauseMs: -1 }), '0'],
  ['chunkPauseMs', run({ chunkPauseMs: MAX_CHUNK_PAUSE_MS + 1 }), String(MAX_CHUNK_PAUSE_MS)],
  ['errorAt', run({ errorAt: -1 }), '0'],
  ['errorAt', run({ errorAt: MAX_COMMANDS }), '999,999'],
  ['neighborRate', run({ neighborRate: -1 }), '0'],
  ['neighborRate', run({ neighborRate: 1e-9 }), String(MIN_NEIGHBOR_RATE)],
  ['neighborRate', run({ neighborRate: 0.05 }), String(MIN_NEIGHBOR_RATE)],
  ['neighborRate', run({ neighborRate: MAX_NEIGHBOR_RATE + 1 }), MAX_NEIGHBOR_RATE.toLocaleString('en-US')],
  ['perPoint', sweep({ perPoint: 0 }), '1'],
  ['perPoint', sweep({ perPoint: MAX_COMMANDS + 1 }), '1,000,000'],
  ['repeats', sweep({ repeats: 0 }), '1'],
  ['repeats', sweep({ repeats: MAX_SWEEP_REPEATS + 1 }), String(MAX_SWEEP_REPEATS)],
  ['depth', sweep({ depths: [0, 1] }), '1'],
  ['depth', sweep({ depths: [1, MAX_COMMANDS + 1], perPoint: MAX_COMMANDS }), '1,000,000'],
  ['rttMs', sweep({ rttMs: MAX_ADDED_RTT_MS + 1 }), String(MAX_ADDED_RTT_MS)],
  ['jitterMs', sweep({ jitterMs: MAX_JITTER_MS + 1 }), String(MAX_JITTER_MS)],
  ['valueBytes', sweep({ command: 'SET', valueBytes: MAX_VALUE_BYTES + 1 }), String(MAX_VALUE_BYTES)],
  ['positionUs', display({ positionUs: -1 }), '0'],
  ['positionUs', display({ positionUs: MAX_POSITION_US * 10 }), MAX_POSITION_US.toExponential()],
  ['speed', display({ speed: 0 }), String(MIN_PLAYBACK_SPEED)],
  ['speed', display({ speed: 1e-9 }), String(MIN_PLAYBACK_SPEED)],
  ['speed', display({ speed: 2 }), '1'],
];

describe('each out-of-range number is refused, naming its field and its bound', () => {
  it.each(CASES)('%s: %j', (field, message, bound) => {
    const text = refusal(message);
    expect(text).toContain(field);
    expect(text).toContain(bound);
    expect(text).toMatch(/at (least|most)/);
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, '5'])('a numeric field given %s is refused as not a number', (value) => {
    expect(refusal(run({ n: value }))).toBe('spec.n: n must be a number');
    expect(refusal(run({ neighborRate: value }))).toBe('spec.neighborRate: neighborRate must be a number');
  });

  it('0 still means "no neighbour", and every bound itself is accepted', () => {
    for (const message of [run({ neighborRate: 0 }), run({ neighborRate: MIN_NEIGHBOR_RATE }), run({ neighborRate: MAX_NEIGHBOR_RATE }),
      run({ rttMs: MAX_ADDED_RTT_MS, jitterMs: MAX_JITTER_MS, chunkPauseMs: MAX_CHUNK_PAUSE_MS, repeats: MAX_REPEATS }),
      display({ positionUs: MAX_POSITION_US, speed: MIN_PLAYBACK_SPEED })]) {
      expect(ClientMessageSchema.safeParse(message).success).toBe(true);
    }
  });
});
