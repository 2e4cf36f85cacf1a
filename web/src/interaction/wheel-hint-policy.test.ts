// The zoom hint: once per page, and never again once the user has zoomed with the wheel.
import { describe, expect, it } from 'vitest';
import { WHEEL_ZOOM_USED_KEY, WheelHintPolicy, type HintStorage } from './wheel-hint-policy.ts';

function memoryStorage(): HintStorage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('WheelHintPolicy', () => {
  it('shows the hint on the first plain wheel only', () => {
    const policy = new WheelHintPolicy(memoryStorage());
    expect(policy.takeHint()).toBe(true);
    expect(policy.takeHint()).toBe(false);
    expect(policy.takeHint()).toBe(false);
  });

  it('stays quiet once the user has zoomed with the wheel, on a later visit too', () => {
    const storage = memoryStorage();
    const first = new WheelHintPolicy(storage);
    first.zoomedWithWheel();
    expect(first.takeHint()).toBe(false);
    expect(storage.items.get(WHEEL_ZOOM_USED_KEY)).toBe('1');
    expect(new WheelHintPolicy(storage).takeHint()).toBe(false);
    // A visitor who never zoomed gets it on the next visit.
    expect(new WheelHintPolicy(memoryStorage()).takeHint()).toBe(true);
  });

  it('works, once per page, where storage is blocked', () => {
    const blocked: HintStorage = {
      getItem: () => { throw new DOMException('blocked', 'SecurityError'); },
      setItem: () => { throw new DOMException('blocked', 'SecurityError'); },
    };
    for (const storage of [blocked, null]) {
      const policy = new WheelHintPolicy(storage);
      expect(policy.takeHint()).toBe(true);
      expect(policy.takeHint()).toBe(false);
      expect(() => policy.zoomedWithWheel()).not.toThrow();
    }
  });
});
