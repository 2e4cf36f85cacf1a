import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { PlaybackClock } from '../interaction/playback-clock.ts';
import { TimeZoomSync } from '../interaction/time-zoom-sync.ts';
import { IDENTITY_ZOOM, type TimeZoom } from '../layout/time-scale-layout.ts';
import { windowOfZoom, zoomOfWindow } from '../layout/zoom-window.ts';
import { MemoryLocation } from '../test-support/memory-location.ts';
import { DisplayLinkSync } from './display-link-sync.ts';
import { hashParams } from './link-fields.ts';
import { PageUrl } from './page-url.ts';

/** The run view's keys when no form was changed: the store writes the whole link. */
const RUN = 'command=INCR&n=10&valueBytes=16&mode=both&scale=shared';

/** `domainFirst`: the diagrams know their timeline before the sync starts (their effects run before the page's). */
function setup(hash: string, domainFirst: number | null = null) {
  const location = new MemoryLocation(`/?trace=/a.json${hash}`);
  const url = new PageUrl(location, 250, () => Date.now());
  const stopUrl = url.start();
  const frames: (() => void)[] = [];
  const scheduler = new FrameScheduler((cb) => frames.push(cb), () => {});
  const playback = new PlaybackClock(scheduler, () => 0);
  const zoomSync = new TimeZoomSync();
  const seen: TimeZoom[] = [];
  const diagram = { applyZoom: (z: TimeZoom) => seen.push(z) };
  zoomSync.join(diagram);
  const sync = new DisplayLinkSync(url, zoomSync, playback);
  if (domainFirst !== null) sync.setDomain(domainFirst);
  const stopSync = sync.start();
  const stop = () => {
    stopSync();
    stopUrl();
  };
  const frame = () => frames.splice(0).forEach((f) => f());
  /** Lets the throttled write happen. */
  const settle = () => {
    frame();
    vi.advanceTimersByTime(300);
  };
  const key = (k: string) => hashParams(location.hash()).get(k);
  return { location, playback, zoomSync, diagram, seen, sync, stop, frame, settle, key };
}

describe('DisplayLinkSync', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('applies a linked zoom once the timeline is known, and keeps it in the URL until then', () => {
    const s = setup('#command=INCR&zoom=100-300&scale=shared');
    s.settle();
    expect(s.zoomSync.zoom).toEqual(IDENTITY_ZOOM);
    expect(s.key('zoom')).toBe('100-300');
    s.sync.setDomain(1000);
    expect(windowOfZoom(s.zoomSync.zoom, 1000)!.fromUs).toBeCloseTo(100, 9);
    expect(windowOfZoom(s.seen.at(-1)!, 1000)!.toUs).toBeCloseTo(300, 9);
    s.settle();
    expect(s.location.hash()).toBe(`#${RUN}&zoom=100-300`); // display keys after the view's
    expect(s.location.search()).toBe('?trace=/a.json');
    s.stop();
  });

  it('reads the link before it writes: a timeline known before it starts does not overwrite a linked zoom', () => {
    const s = setup('#zoom=500-1500&t=1000', 3000);
    expect(windowOfZoom(s.zoomSync.zoom, 3000)!.fromUs).toBeCloseTo(500, 9);
    s.settle();
    expect(s.key('zoom')).toBe('500-1500');
    s.stop();
  });

  it('writes the window as the user zooms, at most every 250 ms, without history entries, and removes it on reset', () => {
    const s = setup('#n=10');
    s.sync.setDomain(1000);
    s.settle();
    const writes = s.location.writes.length;
    s.zoomSync.set(zoomOfWindow({ fromUs: 0, toUs: 500 }, 1000), s.diagram);
    vi.advanceTimersByTime(1);
    expect(s.key('zoom')).toBe('0-500');
    s.zoomSync.set(zoomOfWindow({ fromUs: 100, toUs: 200 }, 1000), s.diagram);
    s.zoomSync.set(zoomOfWindow({ fromUs: 150, toUs: 250 }, 1000), s.diagram);
    vi.advanceTimersByTime(100);
    expect(s.key('zoom')).toBe('0-500');
    vi.advanceTimersByTime(200);
    expect(s.key('zoom')).toBe('150-250');
    s.zoomSync.reset();
    vi.advanceTimersByTime(300);
    expect(s.location.hash()).toBe(`#${RUN}`);
    expect(s.location.writes.length).toBe(writes + 3); // 0-500, 150-250, none: each in place (replaceState)
    s.stop();
  });

  it('rewrites the window when the timeline changes under the same zoom (a longer run arrived)', () => {
    const s = setup('#zoom=0-100');
    s.sync.setDomain(1000);
    s.settle();
    s.sync.setDomain(2000);
    s.settle();
    expect(s.key('zoom')).toBe('0-200');
    s.stop();
  });

  it('seeks the clock to a linked t once it has a timeline, and sets the speed at once', () => {
    const s = setup('#t=250.5&speed=0.01');
    expect(s.playback.getSnapshot().speed).toBe(0.01);
    s.settle();
    expect(s.key('t')).toBe('250.5');
    s.playback.setEnd(1000);
    s.frame();
    expect(s.playback.getSnapshot().positionUs).toBe(250.5);
    s.settle();
    expect(s.key('t')).toBe('250.5');
    expect(s.key('speed')).toBe('0.01');
    s.stop();
  });

  it('writes the playhead when paused or stepped, not while playing', () => {
    const s = setup('');
    s.playback.setEnd(1000);
    s.settle();
    expect(s.key('t')).toBeNull();
    s.playback.seek(40);
    s.settle();
    expect(s.key('t')).toBe('40');
    s.playback.play();
    s.playback.seek(300);
    s.settle();
    expect(s.key('t')).toBe('40');
    s.playback.pause();
    s.settle();
    expect(s.key('t')).toBe('300');
    s.playback.setSpeed(0.5);
    s.settle();
    expect(s.key('speed')).toBe('0.5');
    s.playback.seek(null);
    s.playback.setSpeed(0.001);
    s.settle();
    expect(s.location.hash()).toBe(`#${RUN}`);
    s.stop();
  });

  it('applies a URL the user edits (a navigation); a removed key means its default', () => {
    const s = setup('#zoom=0-100&t=5');
    s.sync.setDomain(1000);
    s.playback.setEnd(1000);
    s.settle();
    s.location.navigate('#zoom=500-1000&t=700&speed=1');
    s.frame();
    expect(windowOfZoom(s.zoomSync.zoom, 1000)!.fromUs).toBeCloseTo(500, 9);
    expect(s.playback.getSnapshot()).toMatchObject({ positionUs: 700, speed: 1 });
    s.location.navigate('#command=PING');
    s.settle();
    expect(s.zoomSync.zoom).toEqual(IDENTITY_ZOOM);
    expect(s.playback.getSnapshot()).toMatchObject({ positionUs: null, speed: 0.001 });
    expect(s.location.hash()).toBe('#command=PING&n=10&valueBytes=16&mode=both&scale=shared');
    s.stop();
  });

  it('writes a clipped window back as applied, and ignores junk', () => {
    const s = setup('#zoom=500-99999&t=abc&speed=x');
    s.sync.setDomain(1000);
    s.settle();
    expect(s.key('zoom')).toBe('500-1000');
    expect(s.key('t')).toBeNull();
    expect(s.key('speed')).toBeNull();
    s.stop();
  });

  it('writes everything at once for Copy link, the playhead even while playing', () => {
    const s = setup('');
    s.sync.setDomain(1000);
    s.playback.setEnd(1000);
    s.settle();
    s.playback.play();
    s.playback.seek(420);
    s.zoomSync.set(zoomOfWindow({ fromUs: 100, toUs: 200 }, 1000), s.diagram);
    s.frame();
    s.sync.writeNow();
    expect([s.key('t'), s.key('zoom')]).toEqual(['420', '100-200']);
    s.stop();
  });

  it('stops listening when stopped', () => {
    const s = setup('');
    s.sync.setDomain(1000);
    s.stop();
    s.zoomSync.set({ k: 2, ty: 0 });
    vi.advanceTimersByTime(1000);
    expect(s.key('zoom')).toBeNull();
  });
});
