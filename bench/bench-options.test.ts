import { expect, it } from 'vitest';
import { CliError } from '../server/app/cli/cli-options.ts';
import { BENCH_PARTS, FULL_SIZES, QUICK_SIZES, parseBenchOptions } from './bench-options.ts';

it('measures every part at full size by default', () => {
  expect(parseBenchOptions([])).toEqual({ parts: [...BENCH_PARTS], sizes: FULL_SIZES, quick: false, json: undefined });
});

it('keeps every part short with --quick', () => {
  expect(QUICK_SIZES.firstWrite.rounds).toBeLessThanOrEqual(3);
  expect(QUICK_SIZES.latency.rounds * QUICK_SIZES.latency.n).toBeLessThanOrEqual(5_000);
  expect(QUICK_SIZES.defaultRuns.requests).toBeLessThanOrEqual(3);
});

it('takes --only, --quick and --json', () => {
  expect(parseBenchOptions(['--only', 'browser,client', '--quick', '--json', 'out.json'])).toEqual({ parts: ['browser', 'client'], sizes: QUICK_SIZES, quick: true, json: 'out.json' });
});

it('refuses unknown parts and flags with a clear message', () => {
  expect(() => parseBenchOptions(['--only', 'browser,gpu'])).toThrow(new CliError('--only takes client, reference, first-write, latency, observe, trace-size, browser, websocket, default-runs, player-size, first-round-trip, probe-cost, added-delay, cluster; not "gpu"'));
  expect(() => parseBenchOptions(['--fast'])).toThrow(CliError);
  expect(() => parseBenchOptions(['--json', ' '])).toThrow('--json needs a file name');
});
