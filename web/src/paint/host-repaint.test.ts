import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameScheduler } from '../base/frame-scheduler.ts';
import { HostRepaint } from './host-repaint.ts';

/** A frame scheduler whose frames run when the test says. */
function manualScheduler() {
  let frame: (() => void) | null = null;
  const scheduler = new FrameScheduler((callback) => {
    frame = callback;
    return 1;
  });
  return { scheduler, runFrame: () => frame?.() };
}

/** A ResizeObserver stand-in: records what it observes and reports a resize when told. */
class FakeResizeObserver {
  static last: FakeResizeObserver | null = null;
  observed: Element[] = [];
  constructor(private readonly callback: () => void) {
    FakeResizeObserver.last = this;
  }
  observe(element: Element): void {
    this.observed.push(element);
  }
  disconnect(): void {
    this.observed = [];
  }
  resize(): void {
    this.callback();
  }
}

/** A host whose clientWidth (jsdom's is always 0) is `width`, changed by setting host.width. */
function hostOfWidth(width: number): HTMLElement & { width: number } {
  const host = Object.assign(document.createElement('div'), { width });
  Object.defineProperty(host, 'clientWidth', { get: () => host.width });
  return host;
}

afterEach(() => {
  vi.unstubAllGlobals();
  FakeResizeObserver.last = null;
});

describe('HostRepaint', () => {
  it('paints once per frame however many repaints were asked for', () => {
    const { scheduler, runFrame } = manualScheduler();
    const paint = vi.fn();
    const repaint = new HostRepaint(hostOfWidth(800), scheduler, paint);
    repaint.request();
    repaint.request();
    repaint.request();
    expect(paint).not.toHaveBeenCalled();
    runFrame();
    expect(paint).toHaveBeenCalledTimes(1);
    runFrame();
    expect(paint).toHaveBeenCalledTimes(1);
  });

  it('takes the host\'s width, or 600 px until it has one', () => {
    const { scheduler } = manualScheduler();
    expect(new HostRepaint(hostOfWidth(812), scheduler, () => {}).width).toBe(812);
    expect(new HostRepaint(hostOfWidth(0), scheduler, () => {}).width).toBe(600);
  });

  it('follows the host\'s width, repainting when it changes and only then', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const { scheduler, runFrame } = manualScheduler();
    const paint = vi.fn();
    const host = hostOfWidth(800);
    const repaint = new HostRepaint(host, scheduler, paint);
    const observer = FakeResizeObserver.last!;
    expect(observer.observed).toEqual([host]);
    observer.resize();
    runFrame();
    expect(paint).not.toHaveBeenCalled();
    host.width = 640;
    observer.resize();
    runFrame();
    expect(repaint.width).toBe(640);
    expect(paint).toHaveBeenCalledTimes(1);
    // Hidden (display: none): the last width is kept.
    host.width = 0;
    observer.resize();
    runFrame();
    expect(repaint.width).toBe(640);
    expect(paint).toHaveBeenCalledTimes(1);
  });

  it('drops a queued repaint and stops observing when destroyed', () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    const { scheduler, runFrame } = manualScheduler();
    const paint = vi.fn();
    const repaint = new HostRepaint(hostOfWidth(800), scheduler, paint);
    repaint.request();
    repaint.destroy();
    runFrame();
    expect(paint).not.toHaveBeenCalled();
    expect(FakeResizeObserver.last!.observed).toEqual([]);
  });
});
