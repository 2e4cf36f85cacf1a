// For tests: the keys under Pipescope's prefix, and a wait until none is left. A cancelled or stopped
// run answers at once and deletes its keys in the background (runs/background-work.ts), so a test that
// checks "no key is left" after a Cancel waits for that clean-up, within a bound, instead of looking once.
import type { Redis } from 'ioredis';
import { LEASE_REGISTRY, runIdOfKey, runIdOfLease } from '../protocol/command-guard.ts';

/** A key Pipescope itself writes: a run's key, a lease, the lease registry (not a user's pipescope:… key). */
export const isPipescopesOwn = (key: string): boolean => runIdOfKey(key) !== null || runIdOfLease(key) !== null || key === LEASE_REGISTRY;

/** Every key under pipescope: (KEYS: a test may; Pipescope itself never does). */
export async function pipescopeKeys(redis: Redis): Promise<string[]> {
  return (await redis.keys('pipescope:*')).sort();
}

/**
 * Resolves with [] once no key is left under pipescope: (of those `which` keeps: all by default), or
 * with (at most 20 of) what is left after `timeoutMs`.
 */
export async function keysLeftAfter(redis: Redis, timeoutMs = 5_000, which: (key: string) => boolean = () => true): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const keys = (await pipescopeKeys(redis)).filter(which);
    if (keys.length === 0 || Date.now() > deadline) return keys.slice(0, 20);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
