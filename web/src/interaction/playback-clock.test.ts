import { describe, expect, it } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { DISCRETE_STEP_MS, PLAYBACK_SPEEDS, PlaybackClock, defaultSpeedFor, nextSpeed } from './playback-clock.ts';

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

  it('steps to the next and the previous stop, from no playback too, and stays inside [0, endUs]', () => {
    const { clock } = setup();
    clock.setEnd(400);
    clock.setStops([10, 110, 130, 350]);
    clock.stepForward();
    expect(clock.getSnapshot().positionUs).toBe(10);
    clock.stepForward();
    clock.stepForward();
    expect(clock.getSnapshot().positionUs).toBe(130);
    clock.seek(200);
    clock.stepBack();
    expect(clock.getSnapshot().positionUs).toBe(130);
    clock.seek(350);
    clock.stepForward();
    expect(clock.getSnapshot().positionUs).toBe(400); // past the last stop: the end
    clock.seek(10);
    clock.stepBack();
    expect(clock.getSnapshot().positionUs).toBe(0);
    clock.seek(null);
    clock.stepBack();
    expect(clock.getSnapshot().positionUs).toBe(350);
  });

  it('moves one frame (1/200 of the timeline), goes Home and End, and End pauses', () => {
    const { clock } = setup();
    clock.setEnd(2000);
    clock.frame(1);
    expect(clock.getSnapshot().positionUs).toBe(10);
    clock.frame(1);
    clock.frame(-1);
    expect(clock.getSnapshot().positionUs).toBe(10);
    clock.play();
    clock.end();
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 2000, playing: false });
    clock.home();
    expect(clock.getSnapshot().positionUs).toBe(0);
  });

  it('goes faster and slower through PLAYBACK_SPEEDS, stopping at both ends', () => {
    const { clock } = setup();
    clock.setSpeed(0.01);
    clock.faster();
    expect(clock.getSnapshot().speed).toBe(0.02);
    clock.slower();
    clock.slower();
    expect(clock.getSnapshot().speed).toBe(0.005);
    expect(nextSpeed(1, 1)).toBe(1);
    expect(nextSpeed(0.001, -1)).toBe(0.001);
    expect(nextSpeed(0.3, -1)).toBe(0.1); // from an unlisted speed: the nearest listed one, then one along
  });

  it('suggests a speed that makes the run last a few seconds, unless one was chosen', () => {
    expect(defaultSpeedFor(300)).toBe(0.001); // a loopback run: as slow as it goes
    expect(defaultSpeedFor(20_000)).toBe(0.005); // 20 ms → 4 s
    expect(defaultSpeedFor(2_500_000)).toBe(0.5); // 2.5 s (10 round trips of 250 ms) → 5 s
    expect(defaultSpeedFor(60_000_000)).toBe(PLAYBACK_SPEEDS[0]);
    const { clock } = setup();
    clock.suggestSpeed(0.5);
    expect(clock.getSnapshot().speed).toBe(0.5);
    clock.setSpeed(0.1);
    clock.suggestSpeed(0.5);
    expect(clock.getSnapshot().speed).toBe(0.1);
  });

  it('with discrete steps (reduced motion), jumps from stop to stop every DISCRETE_STEP_MS and stops at the end', () => {
    const { clock, frameAt } = setup();
    clock.setEnd(400);
    clock.setStops([10, 110, 350]);
    clock.setDiscrete(true);
    clock.play();
    frameAt(DISCRETE_STEP_MS / 2);
    expect(clock.getSnapshot().positionUs).toBe(0);
    frameAt(DISCRETE_STEP_MS);
    expect(clock.getSnapshot().positionUs).toBe(10);
    frameAt(DISCRETE_STEP_MS * 2);
    expect(clock.getSnapshot().positionUs).toBe(110);
    frameAt(DISCRETE_STEP_MS * 3);
    frameAt(DISCRETE_STEP_MS * 4);
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 400, playing: false });
  });
});
