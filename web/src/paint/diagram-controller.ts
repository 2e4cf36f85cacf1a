// Drives one sequence diagram outside React: owns its <svg> and <canvas>, the d3-zoom behaviour, the
// hover/keyboard focus and the width from a ResizeObserver, and turns each of those into a repaint
// request to the frame scheduler. A repaint runs layout (pure) and then the painters; React renders the
// host element once and never re-renders for pan, zoom or hover.
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { commandDetails } from '../format/command-details.ts';
import { formatUs } from '../format/number-format.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import { DENSITY_ROW_PX, densityLayout } from '../layout/density-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from '../layout/diagram-geometry.ts';
import { chooseRenderMode, type RenderMode } from '../layout/render-mode.ts';
import { sequenceLayout } from '../layout/sequence-layout.ts';
import { lowerBound } from '../layout/sorted-search.ts';
import { IDENTITY_ZOOM, axisTicks, maxZoom, timeScale, type TimeScale, type TimeZoom } from '../layout/time-scale-layout.ts';
import { traceColumns, type TraceColumns } from '../model/trace-columns.ts';
import { clearCanvas, paintDensity, sizeCanvas } from './density-canvas-painter.ts';
import type { FrameScheduler } from './frame-scheduler.ts';
import { createSvgLayers, paintArrows, paintBundles, paintFocus, paintFrame, paintMarks, svgElement, type LaneHeads, type SvgLayers } from './sequence-svg-painter.ts';
import { hideTooltip, showTooltip } from './tooltip-painter.ts';

/** How close (px) the pointer must be to an arrow for the nearest-arrow lookup to pick it. */
const HOVER_RADIUS_PX = 8;

interface Hover {
  index: number;
  /** Where to put the tooltip, in client (viewport) coordinates; null = beside the arrow (keyboard). */
  clientX: number | null;
  clientY: number | null;
}

let instances = 0;

export class DiagramController implements ZoomMember {
  private readonly canvas: HTMLCanvasElement;
  private readonly svg: SVGSVGElement;
  private readonly layers: SvgLayers;
  private readonly zoomBehavior: ZoomBehavior<SVGSVGElement, unknown>;
  private readonly resizeObserver: ResizeObserver | null;
  private columns: TraceColumns | null = null;
  private domainEndUs = 1;
  private width: number;
  private zoom: TimeZoom = IDENTITY_ZOOM;
  private applyingExternalZoom = false;
  private hover: Hover | null = null;
  private tooltipShown = false;
  private mode: RenderMode | null = null;
  private geometry: DiagramGeometry;
  private scale: TimeScale | null = null;

  constructor(
    private readonly host: HTMLElement,
    /** Read at paint time: the panel's ref is attached after this diagram's layout effect runs. */
    private readonly panel: { readonly current: HTMLElement | null },
    private readonly zoomSync: TimeZoomSync,
    private readonly scheduler: FrameScheduler,
    label: string,
  ) {
    instances++;
    this.width = host.clientWidth || 600;
    this.geometry = diagramGeometry(this.width);
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'density-canvas';
    this.canvas.dataset['testid'] = 'density-canvas';
    this.canvas.setAttribute('aria-hidden', 'true');
    this.svg = svgElement('svg');
    this.svg.setAttribute('class', 'diagram-svg');
    this.svg.setAttribute('tabindex', '0');
    this.svg.setAttribute('role', 'group');
    this.svg.setAttribute('aria-label', `${label}. Arrow keys step through commands; + and − zoom; 0 resets.`);
    host.append(this.canvas, this.svg);
    this.layers = createSvgLayers(this.svg, `diagram${instances}`);

    const g = this.geometry;
    this.zoomBehavior = d3zoom<SVGSVGElement, unknown>()
      .extent([[0, g.plotTop], [1, g.plotBottom]])
      .translateExtent([[0, g.plotTop], [1, g.plotBottom]])
      .scaleExtent([1, 50])
      .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        this.zoom = { k: event.transform.k, ty: event.transform.y };
        if (this.hover?.clientX !== null) this.hover = null;
        if (!this.applyingExternalZoom) this.zoomSync.set(this.zoom, this);
        this.requestPaint();
      });
    select(this.svg).call(this.zoomBehavior);

    this.svg.addEventListener('pointermove', this.onPointerMove);
    this.svg.addEventListener('pointerleave', this.onPointerLeave);
    this.svg.addEventListener('keydown', this.onKeyDown);
    this.svg.addEventListener('blur', this.onBlur);
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.onResize()) : null;
    this.resizeObserver?.observe(host);
    this.zoomSync.join(this);
  }

  setData(doc: TraceDocument, domainEndUs: number): void {
    this.columns = traceColumns(doc);
    this.domainEndUs = Math.max(1, domainEndUs);
    this.zoomBehavior.scaleExtent([1, maxZoom(this.domainEndUs, this.geometry)]);
    if (this.hover && this.hover.index >= this.columns.n) this.hover = null;
    this.requestPaint();
  }

  applyZoom(zoom: TimeZoom): void {
    this.applyingExternalZoom = true;
    try {
      select(this.svg).call(this.zoomBehavior.transform, zoomIdentity.translate(0, zoom.ty).scale(zoom.k));
    } finally {
      this.applyingExternalZoom = false;
    }
  }

  destroy(): void {
    this.zoomSync.leave(this);
    this.scheduler.cancel(this);
    this.resizeObserver?.disconnect();
    select(this.svg).on('.zoom', null);
    this.svg.removeEventListener('pointermove', this.onPointerMove);
    this.svg.removeEventListener('pointerleave', this.onPointerLeave);
    this.svg.removeEventListener('keydown', this.onKeyDown);
    this.svg.removeEventListener('blur', this.onBlur);
    if (this.tooltipShown) hideTooltip();
    this.canvas.remove();
    this.svg.remove();
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

  private onPointerMove = (event: PointerEvent): void => {
    if (!this.columns || !this.scale || event.buttons !== 0) return;
    const target = (event.target as Element | null)?.closest?.('[data-index]');
    let index: number | null = null;
    if (target instanceof SVGElement && target.dataset['index'] !== undefined) index = Number(target.dataset['index']);
    else index = this.nearestCommand(event.clientY - this.svg.getBoundingClientRect().top);
    const next = index === null ? null : { index, clientX: event.clientX, clientY: event.clientY };
    if (next?.index !== this.hover?.index || next?.clientX !== this.hover?.clientX || next?.clientY !== this.hover?.clientY) {
      this.hover = next;
      this.requestPaint();
    }
  };

  private onPointerLeave = (): void => {
    if (this.hover?.clientX === null) return; // keyboard focus stays
    this.hover = null;
    this.requestPaint();
  };

  private onBlur = (): void => {
    if (this.hover?.clientX !== null) return;
    this.hover = null;
    this.requestPaint();
  };

  private onKeyDown = (event: KeyboardEvent): void => {
    const columns = this.columns;
    if (!columns || columns.n === 0) return;
    const current = this.hover?.index ?? -1;
    const step = event.shiftKey ? 10 : 1;
    let index: number | null = current;
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowRight':
        index = Math.min(columns.n - 1, current + step);
        break;
      case 'ArrowUp':
      case 'ArrowLeft':
        index = Math.max(0, current < 0 ? 0 : current - step);
        break;
      case 'Home':
        index = 0;
        break;
      case 'End':
        index = columns.n - 1;
        break;
      case 'Escape':
        index = null;
        break;
      case '+':
      case '=':
        select(this.svg).call(this.zoomBehavior.scaleBy, 2);
        event.preventDefault();
        return;
      case '-':
        select(this.svg).call(this.zoomBehavior.scaleBy, 0.5);
        event.preventDefault();
        return;
      case '0':
        this.zoomSync.reset();
        event.preventDefault();
        return;
      default:
        return;
    }
    event.preventDefault();
    this.hover = index === null ? null : { index, clientX: null, clientY: null };
    if (index !== null) this.scrollIntoView(index);
    this.requestPaint();
  };

  /** Pans (keeping the zoom) so that the focused command's request is inside the plot. */
  private scrollIntoView(index: number): void {
    const columns = this.columns;
    const scale = this.scale;
    if (!columns || !scale) return;
    const g = this.geometry;
    const y = scale(columns.sentUs[index]!);
    if (y >= g.plotTop && y <= g.plotBottom) return;
    const baseY = g.plotTop + ((columns.sentUs[index]! / this.domainEndUs) * (g.plotBottom - g.plotTop));
    const ty = (g.plotTop + g.plotBottom) / 2 - this.zoom.k * baseY;
    select(this.svg).call(this.zoomBehavior.transform, zoomIdentity.translate(0, ty).scale(this.zoom.k));
  }

  /** The command whose request or reply arrow is nearest to plot y, within HOVER_RADIUS_PX. */
  private nearestCommand(y: number): number | null {
    const columns = this.columns;
    const scale = this.scale;
    if (!columns || !scale || columns.n === 0) return null;
    const t = scale.invert(y);
    let best: number | null = null;
    let bestDistance = HOVER_RADIUS_PX;
    for (const times of [columns.sentUs, columns.repliedUs]) {
      const at = lowerBound(times, t);
      for (const candidate of [at - 1, at]) {
        if (candidate < 0 || candidate >= columns.n) continue;
        // For a bundle, prefer its first command: step back over equal times.
        const first = lowerBound(times, times[candidate]!);
        const distance = Math.abs(scale(times[first]!) - y);
        if (distance < bestDistance) {
          bestDistance = distance;
          best = first;
        }
      }
    }
    return best;
  }

  private paint(): void {
    const columns = this.columns;
    if (!columns) return;
    const g = (this.geometry = diagramGeometry(this.width, DIAGRAM_HEIGHT));
    const scale = (this.scale = timeScale(this.domainEndUs, g, this.zoom));
    const mode = chooseRenderMode(columns, scale);
    paintFrame(this.layers, g, axisTicks(scale), laneHeads(columns.doc, mode));
    let drawn: number;
    if (mode === 'svg') {
      const layout = sequenceLayout(columns, scale, g);
      if (this.mode !== 'svg') clearCanvas(this.canvas);
      paintArrows(this.layers, layout);
      // The horizontal band only matches horizontal arrows; sloped (proxy) arrows keep just the badge.
      paintBundles(this.layers, g, layout.bundles, columns.toServerUs === null);
      paintMarks(this.layers, g, layout.marks);
      drawn = layout.commandsDrawn;
    } else {
      const layout = densityLayout(columns, scale, g);
      const ctx = sizeCanvas(this.canvas, g, window.devicePixelRatio || 1);
      if (ctx) paintDensity(ctx, layout, g, columns.n);
      paintArrows(this.layers, null);
      paintBundles(this.layers, g, layout.labels, false);
      paintMarks(this.layers, g, []);
      drawn = layout.commandsDrawn;
    }
    this.mode = mode;
    const panel = this.panel.current;
    if (panel) {
      panel.dataset['render'] = mode;
      panel.dataset['commandsDrawn'] = String(drawn);
    }
    this.paintHover(columns, scale, g);
  }

  private paintHover(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry): void {
    const hover = this.hover;
    if (!hover || hover.index >= columns.n) {
      paintFocus(this.layers, g, null);
      if (this.tooltipShown) hideTooltip();
      this.tooltipShown = false;
      return;
    }
    const sentUs = columns.sentUs[hover.index]!;
    const repliedUs = columns.repliedUs[hover.index]!;
    const sentY = scale(sentUs);
    const repliedY = scale(repliedUs);
    paintFocus(this.layers, g, {
      sentY,
      repliedY,
      atServerY: columns.toServerUs ? scale(columns.toServerUs[hover.index]!) : sentY,
      leftServerY: columns.fromServerUs ? scale(columns.fromServerUs[hover.index]!) : repliedY,
      latencyLabel: formatUs(repliedUs - sentUs),
    });
    const rect = this.svg.getBoundingClientRect();
    const x = hover.clientX ?? rect.left + g.clientX + 24;
    const y = hover.clientY ?? rect.top + Math.min(g.plotBottom, Math.max(g.plotTop, sentY));
    const keyboard = hover.clientX === null ? '↑ ↓ next command · Shift: ×10 · Esc: close' : undefined;
    showTooltip(commandDetails(columns, hover.index), x, y, keyboard);
    this.tooltipShown = true;
  }
}

function laneHeads(doc: TraceDocument, mode: RenderMode): LaneHeads {
  return {
    client: `Client · ${doc.recorder.client}`,
    clientNote: mode === 'canvas' ? 'lane: in flight ▮, socket writes & reads' : 'lane: socket writes & reads',
    server: `Redis ${doc.redis.version}`,
    serverNote: doc.proxy ? '— arrows end at the delay proxy’s hand-over to Redis' : '— execution times not traced in this run',
    densityNote: mode === 'canvas' ? `each ${DENSITY_ROW_PX} px row: requests → · ← replies · longer, darker = more` : null,
  };
}
