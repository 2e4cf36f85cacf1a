// Follow mode's display state: what the presenter's page sends (capped, throttled) and how the attendee's
// page applies it to its own PlaybackClock, view and URL.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FollowDisplaySchema, type FollowDisplay } from '../../../trace/protocol/follow-protocol.ts';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { PlaybackClock } from '../interaction/playback-clock.ts';
import { DisplayBroadcaster, DisplayMirror, displayOf } from './follow-display.ts';

function clockSetup() {
  const frames: (() => void)[] = [];
  let nowMs = 0;
  const clock = new PlaybackClock(new FrameScheduler((cb) => frames.push(cb), () => {}), () => nowMs);
  const frameAt = (ms: number) => {
    nowMs = ms;
    frames.splice(0).forEach((f) => f());
  };
  return { clock, frameAt, now: () => nowMs };
}

describe('displayOf', () => {
  it('takes the clock, the page and the display keys of the URL, as the schema allows', () => {
    const display = displayOf({ positionUs: 120, playing: true, speed: 0.01, endUs: 500 }, { view: 'run', scale: 'own' },
      { t: '120', zoom: '10-90', theme: 'dark', tour: '3' });
    expect(display).toEqual({ view: 'run', scale: 'own', positionUs: 120, playing: true, speed: 0.01, keys: { t: '120', zoom: '10-90', theme: 'dark', tour: '3' } });
    expect(FollowDisplaySchema.safeParse(display).success).toBe(true);
  });

  it('leaves out a key too long to send', () => {
    const display = displayOf({ positionUs: null, playing: false, speed: 1, endUs: 0 }, { view: 'sweep', scale: 'shared' }, { zoom: '9'.repeat(201), tour: '1' });
    expect(display.keys).toEqual({ tour: '1' });
  });
});

describe('DisplayBroadcaster', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends a change at once, then at most 10 a second, the latest last', () => {
    const { clock, frameAt } = clockSetup();
    const sent: FollowDisplay[] = [];
    let wallMs = 0;
    const broadcaster = new DisplayBroadcaster(clock, (d) => (sent.push(d), true), () => ({ tour: '2' }), () => wallMs);
    const stop = broadcaster.start();
    clock.setEnd(1000);
    broadcaster.resend();
    expect(sent.at(-1)).toMatchObject({ positionUs: null, keys: { tour: '2' } });
    for (let i = 1; i <= 5; i++) {
      clock.seek(i * 100);
      frameAt(i);
    }
    expect(sent).toHaveLength(1); // within 100 ms of the first
    wallMs = 100;
    vi.advanceTimersByTime(100);
    expect(sent).toHaveLength(2);
    expect(sent.at(-1)?.positionUs).toBe(500);
    stop();
  });

  it('while playing, sends the moving position once a second; a pause at once', () => {
    const { clock, frameAt } = clockSetup();
    const sent: FollowDisplay[] = [];
    let wallMs = 0;
    const broadcaster = new DisplayBroadcaster(clock, (d) => (sent.push(d), true), () => ({}), () => wallMs);
    const stop = broadcaster.start();
    clock.setEnd(10_000_000);
    clock.setSpeed(1);
    clock.play();
    frameAt(0);
    expect(sent).toHaveLength(1);
    for (let ms = 16; ms < 1000; ms += 16) {
      wallMs = ms;
      frameAt(ms);
    }
    expect(sent).toHaveLength(1);
    wallMs = 1000;
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(2);
    wallMs = 1100;
    clock.pause();
    frameAt(1100);
    expect(sent.at(-1)).toMatchObject({ playing: false });
    stop();
  });

  it('tries again when it could not send (not sharing yet)', () => {
    const { clock } = clockSetup();
    let sharing = false;
    const sent: FollowDisplay[] = [];
    const broadcaster = new DisplayBroadcaster(clock, (d) => sharing && sent.push(d) > 0, () => ({}), () => 0);
    broadcaster.setPage({ view: 'run', scale: 'shared' });
    expect(sent).toHaveLength(0);
    sharing = true;
    broadcaster.resend();
    expect(sent).toHaveLength(1);
  });
});

describe('DisplayMirror', () => {
  const display = (patch: Partial<FollowDisplay>): FollowDisplay => ({ view: 'run', scale: 'shared', positionUs: 300, playing: false, speed: 0.01, keys: {}, ...patch });

  it('sets the clock, view and scale to the presenter’s, and the zoom and tour keys of the URL', () => {
    const { clock, frameAt } = clockSetup();
    const pages: unknown[] = [];
    const written: unknown[] = [];
    const mirror = new DisplayMirror(clock, (page) => pages.push(page), (keys) => written.push(keys));
    const stop = mirror.start();
    clock.setEnd(1000);
    frameAt(1);
    mirror.apply(display({ view: 'gallery', scale: 'own', keys: { tour: '4', theme: 'dark', zoom: '1-2' } }));
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 300, playing: false, speed: 0.01 });
    expect(pages).toEqual([{ view: 'gallery', scale: 'own' }]);
    expect(written).toEqual([{ zoom: '1-2', tour: '4' }]); // not the theme: each reader's own (the URL: url/page-url.test.ts)
    mirror.apply(display({ positionUs: null }));
    expect(clock.getSnapshot().positionUs).toBeNull();
    expect(written.at(-1)).toEqual({ zoom: null, tour: null });
    stop();
  });

  it('plays when the presenter plays, and seeks again once the traces arrive and the timeline is long enough', () => {
    const { clock, frameAt } = clockSetup();
    const mirror = new DisplayMirror(clock, () => {}, () => {});
    const stop = mirror.start();
    mirror.apply(display({ positionUs: 700, playing: false }));
    expect(clock.getSnapshot().positionUs).toBe(0); // nothing drawn yet: clamped to an empty timeline
    clock.setEnd(1000); // the presenter's run arrived
    frameAt(1);
    expect(clock.getSnapshot().positionUs).toBe(700);
    mirror.apply(display({ positionUs: 800, playing: true }));
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 800, playing: true });
    mirror.apply(display({ positionUs: 810, playing: false }));
    expect(clock.getSnapshot()).toMatchObject({ positionUs: 810, playing: false });
    stop();
  });
});
