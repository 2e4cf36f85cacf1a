import { describe, expect, it } from 'vitest';
import { FrameScheduler } from './frame-scheduler.ts';
import { SnapshotStore } from './snapshot-store.ts';

function setup() {
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => frames.push(cb), () => {});
  const frame = () => frames.splice(0).forEach((f) => f());
  return { scheduler, frame, framesPending: () => frames.length };
}

describe('SnapshotStore', () => {
  it('publishes several updates once, with the next frame; getSnapshot sees each at once', () => {
    const { scheduler, frame } = setup();
    const store = new SnapshotStore({ a: 0, b: 'x' }, scheduler);
    let published = 0;
    store.subscribe(() => published++);
    const first = store.getSnapshot();
    store.update({ a: 1 });
    expect(store.getSnapshot()).toEqual({ a: 1, b: 'x' });
    store.update({ b: 'y' });
    store.update({ a: 2 });
    expect(published).toBe(0);
    frame();
    expect(published).toBe(1);
    expect(store.getSnapshot()).toEqual({ a: 2, b: 'y' });
    expect(first).toEqual({ a: 0, b: 'x' }); // snapshots are replaced, never changed
    frame();
    expect(published).toBe(1);
    store.update({});
    frame();
    expect(published).toBe(2);
  });

  it('keeps the same snapshot object until an update', () => {
    const { scheduler } = setup();
    const store = new SnapshotStore({ n: 1 }, scheduler);
    expect(store.getSnapshot()).toBe(store.getSnapshot());
    const before = store.getSnapshot();
    store.update({ n: 1 });
    expect(store.getSnapshot()).not.toBe(before);
  });

  it('tells every subscriber, stops telling one that unsubscribed, and shares one frame with other stores', () => {
    const { scheduler, frame, framesPending } = setup();
    const one = new SnapshotStore({ n: 0 }, scheduler);
    const two = new SnapshotStore({ n: 0 }, scheduler);
    const heard: string[] = [];
    const stop = one.subscribe(() => heard.push('one/a'));
    one.subscribe(() => heard.push('one/b'));
    two.subscribe(() => heard.push('two'));
    one.update({ n: 1 });
    two.update({ n: 1 });
    one.update({ n: 2 });
    expect(framesPending()).toBe(1);
    frame();
    expect(heard).toEqual(['one/a', 'one/b', 'two']);
    stop();
    one.update({ n: 3 });
    frame();
    expect(heard).toEqual(['one/a', 'one/b', 'two', 'one/b']);
  });
});
