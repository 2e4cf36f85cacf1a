import { describe, expect, it } from 'vitest';
import { FrameScheduler } from './frame-scheduler.ts';

function manualScheduler() {
  const frames: (() => void)[] = [];
  const pending: boolean[] = [];
  const scheduler = new FrameScheduler(
    (callback) => frames.push(callback),
    (p) => pending.push(p),
  );
  return { scheduler, frames, pending };
}

describe('FrameScheduler', () => {
  it('merges requests into one frame, last task per key wins', () => {
    const { scheduler, frames, pending } = manualScheduler();
    const ran: string[] = [];
    scheduler.request('a', () => ran.push('a1'));
    scheduler.request('a', () => ran.push('a2'));
    scheduler.request('b', () => ran.push('b'));
    expect(frames).toHaveLength(1);
    expect(scheduler.pending).toBe(true);
    frames[0]!();
    expect(ran).toEqual(['a2', 'b']);
    expect(scheduler.pending).toBe(false);
    expect(pending).toEqual([false, true, false]);
  });

  it('runs tasks queued during a frame in the next one and stays pending until then', () => {
    const { scheduler, frames, pending } = manualScheduler();
    scheduler.request('a', () => scheduler.request('b', () => undefined));
    frames[0]!();
    expect(frames).toHaveLength(2);
    expect(pending.at(-1)).toBe(true);
    frames[1]!();
    expect(pending.at(-1)).toBe(false);
  });

  it('keeps painting the others when one task throws', () => {
    const { scheduler, frames } = manualScheduler();
    const ran: string[] = [];
    const original = console.error;
    console.error = () => undefined;
    scheduler.request('bad', () => {
      throw new Error('boom');
    });
    scheduler.request('good', () => ran.push('good'));
    frames[0]!();
    console.error = original;
    expect(ran).toEqual(['good']);
  });

  it('forgets a cancelled task', () => {
    const { scheduler, frames } = manualScheduler();
    const ran: string[] = [];
    scheduler.request('a', () => ran.push('a'));
    scheduler.cancel('a');
    frames[0]!();
    expect(ran).toEqual([]);
  });
});
