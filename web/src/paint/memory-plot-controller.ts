// Drives one memory plot outside React: owns its <svg>, follows the run diagrams' shared zoom (so the plot
// shows the time window the diagram above shows) and its host's width, and turns each change into one
// repaint request to the frame scheduler. A repaint runs the pure layout, then the painter. The plot only
// follows the zoom: wheel and drag stay the diagram's.
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import { memoryPlotGeometry, memoryPlotLayout, type MemoryPlotInput } from '../layout/memory-chart-layout.ts';
import { IDENTITY_ZOOM, timeScale, visibleTimeRange, type TimeZoom } from '../layout/time-scale-layout.ts';
import type { FrameScheduler } from '../base/frame-scheduler.ts';
import { createMemoryPlotLayers, paintMemoryPlot, type MemoryPlotLayers } from './memory-plot-painter.ts';

export type MemoryPlotData = Omit<MemoryPlotInput, 'fromUs' | 'toUs'>;

let instances = 0;

export class MemoryPlotController implements ZoomMember {
  private readonly layers: MemoryPlotLayers;
  private readonly resizeObserver: ResizeObserver | null;
  private data: MemoryPlotData | null = null;
  private domainEndUs = 1;
  private zoom: TimeZoom = IDENTITY_ZOOM;
  private width: number;

  constructor(
    private readonly host: HTMLElement,
    private readonly zoomSync: TimeZoomSync,
    private readonly scheduler: FrameScheduler,
    private readonly axis: boolean,
    label: string,
  ) {
    instances++;
    this.width = host.clientWidth || 600;
    this.layers = createMemoryPlotLayers(`memory${instances}`);
    this.layers.svg.attr('role', 'img').attr('aria-label', label).attr('data-testid', 'memory-plot');
    host.append(this.layers.svg.node()!);
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.onResize()) : null;
    this.resizeObserver?.observe(host);
    this.zoomSync.join(this);
  }

  /** domainEndUs: the run diagram's unzoomed end (shared: the longest run on screen; own: this run's). */
  setData(data: MemoryPlotData, domainEndUs: number): void {
    this.data = data;
    this.domainEndUs = Math.max(1, domainEndUs);
    this.requestPaint();
  }

  applyZoom(zoom: TimeZoom): void {
    this.zoom = zoom;
    this.requestPaint();
  }

  destroy(): void {
    this.zoomSync.leave(this);
    this.scheduler.cancel(this);
    this.resizeObserver?.disconnect();
    this.layers.svg.remove();
  }

  private requestPaint(): void {
    this.scheduler.request(this, () => this.paint());
  }

  private onResize(): void {
    const width = this.host.clientWidth;
    if (width > 0 && width !== this.width) {
      this.width = width;
      this.requestPaint();
    }
  }

  private paint(): void {
    if (!this.data) return;
    // The diagram's zoom is in its plot px; the same zoom over the same domain gives the same µs window.
    const { fromUs, toUs } = visibleTimeRange(timeScale(this.domainEndUs, diagramGeometry(this.width), this.zoom));
    const geometry = memoryPlotGeometry(this.width, this.axis);
    paintMemoryPlot(this.layers, memoryPlotLayout({ ...this.data, fromUs, toUs }, geometry), geometry);
  }
}
