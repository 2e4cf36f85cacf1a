import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Throttle } from './state-throttle.ts';

describe('Throttle', () => {
  let now = 0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = 1000;
  });
  afterEach(() => vi.useRealTimers());

  it('sends the first change at once and at most one per interval after, the last never lost', () => {
    const sent: number[] = [];
    const throttle = new Throttle(() => sent.push(now), 100, () => now);
    throttle.poke();
    expect(sent).toEqual([1000]);
    for (let t = 1010; t < 1100; t += 10) {
      now = t;
      throttle.poke();
    }
    expect(sent).toEqual([1000]);
    now = 1100;
    vi.advanceTimersByTime(100);
    expect(sent).toEqual([1000, 1100]);
    now = 1300;
    throttle.poke();
    expect(sent).toEqual([1000, 1100, 1300]);
  });

  it('cancel drops a pending send', () => {
    const sent: number[] = [];
    const throttle = new Throttle(() => sent.push(now), 100, () => now);
    throttle.poke();
    now = 1050;
    throttle.poke();
    throttle.cancel();
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([1000]);
  });
});
