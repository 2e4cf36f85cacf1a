import { describe, expect, it } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { PlaybackClock } from './playback-clock.ts';

function setup() {
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => frames.push(cb), () => {});
  let nowMs = 0;
  const clock = new PlaybackClock(scheduler, () => nowMs);
  const frameAt = (ms: number) => {
    nowMs = ms;
    frames.splice(0).forEach((f) => f());
  };
  return { clock, frameAt };
}

describe('PlaybackClock', () => {
  it('starts with no playback (everything drawn) and clamps seeks to the timeline', () => {
    const { clock } = setup();
    expect(clock.getSnapshot().positionUs).toBeNull();
    clock.setEnd(1000);
    clock.seek(5000);
    expect(clock.getSnapshot().positionUs).toBe(1000);
    clock.seek(-3);
    expect(clock.getSnapshot().positionUs).toBe(0);
    clock.seek(null);
    expect(clock.getSnapshot()).toMatchObject({ positionUs: null, playing: false });
  });

  it('advances by wall time × speed each frame and stops at the end', () => {
    const { clock, frameAt } = setup();
    clock.setEnd(100);
    clock.setSpeed(0.01); // 10 ms of wall time = 100 µs of trace
    clock.play();
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 0, playing: true });
    frameAt(5); // 5,000 µs × 0.01 = 50 µs
    expect(clock.getSnapshot().positionUs).toBeCloseTo(50);
    frameAt(20);
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 100, playing: false });
    frameAt(40);
    expect(clock.getSnapshot().positionUs).toBe(100);
  });

  it('pauses where it is, plays again from there, and restarts from 0 at the end', () => {
    const { clock, frameAt } = setup();
    clock.setEnd(1000);
    clock.setSpeed(0.01);
    clock.play();
    frameAt(10);
    clock.pause();
    frameAt(50);
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 100, playing: false });
    clock.seek(1000);
    clock.toggle();
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 0, playing: true });
  });

  it('keeps the playhead inside a timeline that shrinks, and refuses a speed that is not positive', () => {
    const { clock } = setup();
    clock.setEnd(1000);
    clock.seek(800);
    clock.setEnd(500);
    expect(clock.getSnapshot().positionUs).toBe(500);
    clock.setSpeed(0);
    clock.setSpeed(Number.NaN);
    expect(clock.getSnapshot().speed).toBe(0.001);
  });
});
