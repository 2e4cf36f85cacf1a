import { describe, expect, it } from 'vitest';
import { FIRST_PARTIAL_DELAY_MS, PARTIAL_MAX_INTERVAL_MS, PartialTraceThrottle, partialIntervalMs } from './partial-trace-throttle.ts';

function setup() {
  let now = 0;
  const due: { at: number; run: () => void }[] = [];
  let rebuilds = 0;
  const throttle = new PartialTraceThrottle(() => rebuilds++, {
    now: () => now,
    setTimeout: (run, ms) => due.push({ at: now + ms, run }),
    clearTimeout: (entry) => due.splice(due.indexOf(entry as never), 1),
  });
  const advance = (ms: number) => {
    now += ms;
    due.filter((d) => d.at <= now).forEach((d) => (due.splice(due.indexOf(d), 1), d.run()));
  };
  return { throttle, advance, rebuilds: () => rebuilds };
}

describe('PartialTraceThrottle', () => {
  it('rebuilds small runs as events come, large ones at most every commands / 400 ms (≤ 250 ms)', () => {
    expect(partialIntervalMs(1_999)).toBe(0);
    expect(partialIntervalMs(40_000)).toBe(100);
    expect(partialIntervalMs(1_000_000)).toBe(PARTIAL_MAX_INTERVAL_MS);
  });

  it('waits a little before a run\'s first rebuild, merges events meanwhile, and stops when cancelled', () => {
    const { throttle, advance, rebuilds } = setup();
    throttle.runStarted();
    throttle.eventsArrived(10);
    throttle.eventsArrived(20);
    advance(FIRST_PARTIAL_DELAY_MS - 1);
    expect(rebuilds()).toBe(0);
    advance(1);
    expect(rebuilds()).toBe(1);
    throttle.eventsArrived(100_000);
    advance(249);
    expect(rebuilds()).toBe(1);
    advance(1);
    expect(rebuilds()).toBe(2);
    throttle.eventsArrived(100_000);
    throttle.cancel();
    advance(1_000);
    expect(rebuilds()).toBe(2);
  });
});
