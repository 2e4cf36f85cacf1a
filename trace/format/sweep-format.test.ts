import { describe, expect, it } from 'vitest';
import { MAX_SWEEP_COMMANDS, SweepSpecSchema, powersOfTwoUpTo, spreadOf, sweepRoundTrips, sweepRunAt, sweepRunCount } from './sweep-format.ts';
import { describeIssues } from './trace-io.ts';

const VALID = { command: 'PING', depths: [1, 2, 4], perPoint: 1000, repeats: 3 };

function issueOf(spec: Record<string, unknown>): string {
  const result = SweepSpecSchema.safeParse(spec);
  if (result.success) throw new Error(`expected ${JSON.stringify(spec)} to be refused`);
  return describeIssues(result.error);
}

describe('powersOfTwoUpTo', () => {
  it('doubles up to the maximum, which is always the last depth', () => {
    expect(powersOfTwoUpTo(1)).toEqual([1]);
    expect(powersOfTwoUpTo(64)).toEqual([1, 2, 4, 8, 16, 32, 64]);
    expect(powersOfTwoUpTo(100)).toEqual([1, 2, 4, 8, 16, 32, 64, 100]);
  });
});

describe('spreadOf', () => {
  it('median of an odd count is the middle value; of an even count, the mean of the middle two', () => {
    expect(spreadOf([3, 1, 2])).toEqual({ median: 2, min: 1, max: 3 });
    expect(spreadOf([10, 40, 20, 30])).toEqual({ median: 25, min: 10, max: 40 });
    expect(spreadOf([])).toEqual({ median: 0, min: 0, max: 0 });
  });
});

describe('sweepRunAt', () => {
  it('follows the backend’s order: in rounds, the depths alternating up and down, then redis-benchmark depth by depth', () => {
    const spec = SweepSpecSchema.parse({ command: 'PING', depths: [1, 2, 4], perPoint: 100, repeats: 2, reference: true });
    expect(sweepRunCount(spec)).toBe(12);
    expect(sweepRunAt(spec, 1)).toEqual({ tool: 'pipescope', depth: 1, repeat: 1 });
    expect(sweepRunAt(spec, 3)).toEqual({ tool: 'pipescope', depth: 4, repeat: 1 });
    expect(sweepRunAt(spec, 4)).toEqual({ tool: 'pipescope', depth: 4, repeat: 2 });
    expect(sweepRunAt(spec, 6)).toEqual({ tool: 'pipescope', depth: 1, repeat: 2 });
    expect(sweepRunAt(spec, 7)).toEqual({ tool: 'redis-benchmark', depth: 1, repeat: 1 });
    expect(sweepRunAt(spec, 12)).toEqual({ tool: 'redis-benchmark', depth: 4, repeat: 2 });
    expect(sweepRunAt(spec, 13)).toBeNull();
    expect(sweepRunAt(spec, 0)).toBeNull();
    expect(sweepRunAt({ ...spec, reference: false }, 7)).toBeNull();
  });

  it('counts each depth × repeat once without the reference', () => {
    const spec = { depths: [1, 8, 64], repeats: 3, reference: false };
    expect(sweepRunCount(spec)).toBe(9);
    const order = Array.from({ length: 9 }, (_, i) => sweepRunAt(spec, i + 1));
    expect(order.map((s) => `${s?.tool}:${s?.depth}:${s?.repeat}`)).toEqual([
      'pipescope:1:1', 'pipescope:8:1', 'pipescope:64:1',
      'pipescope:64:2', 'pipescope:8:2', 'pipescope:1:2',
      'pipescope:1:3', 'pipescope:8:3', 'pipescope:64:3',
    ]);
    expect(sweepRunAt(spec, 1.5)).toBeNull();
  });
});

describe('SweepSpecSchema', () => {
  it('fills in the defaults', () => {
    expect(SweepSpecSchema.parse({ command: 'PING', depths: [1, 8] })).toEqual({
      command: 'PING', valueBytes: 16, depths: [1, 8], perPoint: 10_000, repeats: 6, engine: 'ioredis', rttMs: 0, jitterMs: 0, reference: false,
    });
  });

  it.each([
    [{ depths: [] }, 'depths: choose at least one depth'],
    [{ depths: [1, 4, 2] }, 'depths: depths must be increasing, each once'],
    [{ depths: [1, 1] }, 'depths: depths must be increasing, each once'],
    [{ depths: [0, 1] }, 'depths.0: each depth must be at least 1'],
    [{ depths: [1, 2000] }, 'depths: the deepest pipeline cannot hold more than perPoint commands'],
    [{ repeats: 11 }, 'repeats: repeats must be at most 10'],
    [{ perPoint: 1_000_000, repeats: 10, depths: [1, 2, 4] }, `perPoint: perPoint × repeats × depths must be at most ${MAX_SWEEP_COMMANDS.toLocaleString('en-US')} commands`],
    [{ command: 'SET', valueBytes: 1024 * 1024, perPoint: 1000 }, 'valueBytes: perPoint × valueBytes must be at most 256 MiB'],
    [{ command: 'FLUSHALL' }, 'command: Invalid option: expected one of "PING"|"INCR"|"SET"|"GET"|"GET-COMPUTE-SET"'],
  ])('refuses %j', (change, message) => {
    expect(issueOf({ ...VALID, ...change })).toBe(message);
  });

  it('refuses a sweep that would wait more than 10 minutes for round trips at its RTT', () => {
    // depth 1 alone: 1,000 round trips × 3 repeats × 250 ms = 12.5 minutes
    expect(sweepRoundTrips({ depths: [1, 2, 4], perPoint: 1000, repeats: 3 })).toBe((1000 + 500 + 250) * 3);
    expect(issueOf({ ...VALID, rttMs: 250 })).toMatch(/^rttMs: at this RTT the sweep would wait more than 10 minutes/);
    expect(SweepSpecSchema.safeParse({ ...VALID, depths: [100, 1000], rttMs: 250 }).success).toBe(true);
  });
});
