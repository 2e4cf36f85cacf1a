// Drives one memory plot outside React: owns its <svg>, follows the run diagrams' shared zoom (so the plot
// shows the time window the diagram above shows) and its host's width, and turns each change into one
// repaint request (host-repaint.ts: the frame scheduler and a ResizeObserver). A repaint runs the pure
// layout, then the painter. The plot only follows the zoom: wheel and drag stay the diagram's.
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import { diagramGeometry } from '../layout/diagram-geometry.ts';
import { memoryPlotGeometry, memoryPlotLayout, type MemoryPlotInput } from '../layout/memory-chart-layout.ts';
import { IDENTITY_ZOOM, timeScale, visibleTimeRange, type TimeZoom } from '../layout/time-scale-layout.ts';
import type { FrameScheduler } from '../base/frame-scheduler.ts';
import { HostRepaint } from './host-repaint.ts';
import { createMemoryPlotLayers, paintMemoryPlot, type MemoryPlotLayers } from './memory-plot-painter.ts';

export type MemoryPlotData = Omit<MemoryPlotInput, 'fromUs' | 'toUs'>;

let instances = 0;

export class MemoryPlotController implements ZoomMember {
  private readonly layers: MemoryPlotLayers;
  private readonly repaint: HostRepaint;
  private data: MemoryPlotData | null = null;
  private domainEndUs = 1;
  private zoom: TimeZoom = IDENTITY_ZOOM;

  constructor(
    host: HTMLElement,
    private readonly zoomSync: TimeZoomSync,
    scheduler: FrameScheduler,
    private readonly axis: boolean,
    label: string,
  ) {
    instances++;
    this.layers = createMemoryPlotLayers(`memory${instances}`);
    this.layers.svg.attr('role', 'img').attr('aria-label', label).attr('data-testid', 'memory-plot');
    host.append(this.layers.svg.node()!);
    this.repaint = new HostRepaint(host, scheduler, () => this.paint());
    this.zoomSync.join(this);
  }

  /** domainEndUs: the run diagram's unzoomed end (shared: the longest run on screen; own: this run's). */
  setData(data: MemoryPlotData, domainEndUs: number): void {
    this.data = data;
    this.domainEndUs = Math.max(1, domainEndUs);
    this.repaint.request();
  }

  applyZoom(zoom: TimeZoom): void {
    this.zoom = zoom;
    this.repaint.request();
  }

  destroy(): void {
    this.zoomSync.leave(this);
    this.repaint.destroy();
    this.layers.svg.remove();
  }

  private paint(): void {
    if (!this.data) return;
    // The diagram's zoom is in its plot px; the same zoom over the same domain gives the same µs window.
    const { fromUs, toUs } = visibleTimeRange(timeScale(this.domainEndUs, diagramGeometry(this.repaint.width), this.zoom));
    const geometry = memoryPlotGeometry(this.repaint.width, this.axis);
    paintMemoryPlot(this.layers, memoryPlotLayout({ ...this.data, fromUs, toUs }, geometry), geometry);
  }
}
