// The backend's bound on a request's duration: the page's two-minute question as the server's rule,
// and the hard bound (--max-run-seconds) that no confirmation passes.
import { describe, expect, it } from 'vitest';
import { ClientMessageSchema } from '../../../trace/protocol/live-protocol.ts';
import { durationRefusal, expectedDurationUs } from './duration-bound.ts';
import { durationText } from '../../support/duration-text.ts';

const request = (message: unknown) => {
  const parsed = ClientMessageSchema.parse(message);
  if (parsed.type !== 'run' && parsed.type !== 'sweep') throw new Error('not a request');
  return parsed;
};
const run = (spec: Record<string, unknown>) => request({ type: 'run', requestId: 'r', spec: { command: 'PING', modes: ['sequential'], repeats: 1, ...spec } });

describe('durationRefusal', () => {
  it('refuses the probe\'s 11.6-day run, confirmed or not', () => {
    const days = run({ n: 1_000_000, rttMs: 1000, confirmLongRun: true });
    expect(durationRefusal(days, 100, 600)).toBe(
      'This request would take about 11.6 days; this server runs a request for at most 10 min (--max-run-seconds 600). Ask for fewer commands, fewer repeats or less added delay.');
  });

  it('asks for confirmation past two minutes, as the page does, and takes a confirmed one within the bound', () => {
    const long = run({ n: 1000, rttMs: 250 });
    expect(durationRefusal(long, 100, 600)).toBe(
      'This request is long: its sequential run should take about 4.2 min (1,000 round trips at 250 ms each). ' +
      'Confirm it first (the page asks; a script sends confirmLongRun: true), or ask for N = 239 (about a minute).');
    expect(durationRefusal(run({ n: 1000, rttMs: 250, confirmLongRun: true }), 100, 600)).toBeNull();
    expect(durationRefusal(run({ n: 400, rttMs: 250 }), 100, 600)).toBeNull();
    // A raised bound lets it run; a lowered one refuses it even confirmed.
    expect(durationRefusal(run({ n: 1000, rttMs: 250, confirmLongRun: true }), 100, 60)).toMatch(/^This request would take about 4\.2 min; .* at most 1 min \(--max-run-seconds 60\)/);
  });

  it('counts every mode and every repeat of runs under a second, and one round of longer runs', () => {
    const short = run({ n: 100, modes: ['sequential', 'pipeline'], repeats: 5 });
    expect(expectedDurationUs(short, 100)).toBe(5 * ((100 * 100 + 100) + (100 + 100)));
    const long = run({ n: 20_000, repeats: 5 }); // 2 s: not repeated
    expect(expectedDurationUs(long, 100)).toBe(20_000 * 100 + 20_000);
  });

  it('holds sweeps to the hard bound, with their reference', () => {
    const sweep = request({ type: 'sweep', requestId: 's', spec: { command: 'PING', depths: [1], perPoint: 1_000_000, repeats: 10, reference: true } });
    expect(durationRefusal(sweep, 100, 600)).toMatch(/^This request would take about 33\.7 min; /); // 10,000,000 round trips, twice
  });
});

describe('durationText', () => {
  it.each([[850, '850 µs'], [12_400, '12.4 ms'], [4_200_000, '4.2 s'], [210_000_000, '3.5 min'], [1_000_101_000_000, '11.6 days'], [600e6, '10 min']])('%i µs is %s', (us, text) => {
    expect(durationText(us)).toBe(text);
  });
});
