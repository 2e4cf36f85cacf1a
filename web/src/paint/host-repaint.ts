// The repaint loop every controller that draws outside React shares (diagram-controller.ts,
// memory-plot-controller.ts): repaint requests go to the frame scheduler (base/frame-scheduler.ts), so any
// number of them within a frame paint once, and a ResizeObserver on the host follows its width, asking
// for a repaint when it changes. What a repaint draws is the controller's.
import type { FrameScheduler } from '../base/frame-scheduler.ts';

/** The width (CSS px) assumed until the host has one of its own (not yet laid out, or in jsdom). */
const FALLBACK_WIDTH_PX = 600;

export class HostRepaint {
  private widthPx: number;
  private readonly resizeObserver: ResizeObserver | null;

  constructor(
    private readonly host: HTMLElement,
    private readonly scheduler: FrameScheduler,
    private readonly paint: () => void,
  ) {
    this.widthPx = host.clientWidth || FALLBACK_WIDTH_PX;
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.onResize()) : null;
    this.resizeObserver?.observe(host);
  }

  /** The host's width, CSS px, as last seen (a hidden host, width 0, keeps the last one). */
  get width(): number {
    return this.widthPx;
  }

  /** Asks for one repaint in the next frame. */
  request(): void {
    this.scheduler.request(this, () => this.paint());
  }

  /** Drops a repaint still queued and stops following the host's size. */
  destroy(): void {
    this.scheduler.cancel(this);
    this.resizeObserver?.disconnect();
  }

  private onResize(): void {
    const width = this.host.clientWidth;
    if (width > 0 && width !== this.widthPx) {
      this.widthPx = width;
      this.request();
    }
  }
}
