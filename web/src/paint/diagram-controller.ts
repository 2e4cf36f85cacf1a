// Drives one sequence diagram outside React: owns its <svg> and <canvas>, the d3-zoom behaviour, the
// hover/keyboard focus, the selected wire event and the width from a ResizeObserver, and turns each of
// those into a repaint request to the frame scheduler. A repaint runs layout (pure) and then the
// painters; React renders the host element once and never re-renders for pan, zoom or hover. A click on
// a write/read/syscall mark is reported through onWireClick (the wire view selects its row).
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { commandDetails, type CommandDetails } from '../format/command-details.ts';
import { otherDetails, syscallDetails } from '../format/server-event-details.ts';
import { formatUs } from '../format/number-format.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import { DENSITY_ROW_PX, densityLayout } from '../layout/density-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from '../layout/diagram-geometry.ts';
import { chooseRenderMode, type RenderMode } from '../layout/render-mode.ts';
import { sequenceLayout } from '../layout/sequence-layout.ts';
import { serverLaneLayout } from '../layout/server-lane-layout.ts';
import { lowerBound } from '../base/sorted-search.ts';
import { IDENTITY_ZOOM, axisTicks, maxZoom, timeScale, type TimeScale, type TimeZoom } from '../layout/time-scale-layout.ts';
import { traceColumns, type TraceColumns } from '../model/trace-columns.ts';
import { parseWireKey, type WireRef } from '../model/wire-rows.ts';
import { clearCanvas, paintDensity, sizeCanvas } from './density-canvas-painter.ts';
import type { FrameScheduler } from '../base/frame-scheduler.ts';
import {
  createSvgLayers, paintArrows, paintBundles, paintFocus, paintFrame, paintMarks, paintSelection, paintServerLane, svgElement,
  type LaneHeads, type SvgLayers,
} from './sequence-svg-painter.ts';
import { hideTooltip, showTooltip } from './tooltip-painter.ts';

/** How close (px) the pointer must be to an arrow for the nearest-arrow lookup to pick it. */
const HOVER_RADIUS_PX = 8;

/** A command (its arrows, or its execution mark), or a Redis-side event with a tooltip of its own. */
type HoverTarget = { kind: 'command'; index: number } | { kind: 'syscall' | 'other'; event: number };

interface Hover {
  target: HoverTarget;
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
  private selected: WireRef | null = null;
  /** Called with the wire event whose mark was clicked. */
  onWireClick: ((ref: WireRef) => void) | null = null;

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
    this.svg.addEventListener('click', this.onClick);
    this.resizeObserver = typeof ResizeObserver === 'function' ? new ResizeObserver(() => this.onResize()) : null;
    this.resizeObserver?.observe(host);
    this.zoomSync.join(this);
  }

  /**
   * A new document, or the same run grown (live drawing: a partial document per rebuild, same run id).
   * A grown run keeps its zoom, hover and focus; the SVG layers are reused, so a rebuild is one repaint.
   */
  setData(doc: TraceDocument, domainEndUs: number): void {
    const grown = this.columns?.doc.run.id === doc.run.id;
    this.columns = traceColumns(doc);
    this.domainEndUs = Math.max(1, domainEndUs);
    this.zoomBehavior.scaleExtent([1, maxZoom(this.domainEndUs, this.geometry)]);
    if (!grown) this.hover = null;
    this.requestPaint();
  }

  /** The wire event to ring; with reveal, pans (keeping the zoom) so that it is in view. */
  setSelection(ref: WireRef | null, reveal: boolean): void {
    this.selected = ref;
    const at = ref ? this.eventTimeUs(ref) : null;
    if (reveal && at !== null) this.revealTime(at);
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
    this.svg.removeEventListener('click', this.onClick);
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
    const element = event.target as Element | null;
    const onEvent = element?.closest?.('[data-hover]');
    const onCommand = element?.closest?.('[data-index]');
    let target: HoverTarget | null = null;
    if (onEvent instanceof SVGElement) {
      const [kind, k] = (onEvent.dataset['hover'] ?? '').split(':');
      if (kind === 'syscall' || kind === 'other') target = { kind, event: Number(k) };
    } else if (onCommand instanceof SVGElement && onCommand.dataset['index'] !== undefined) {
      target = { kind: 'command', index: Number(onCommand.dataset['index']) };
    } else {
      const index = this.nearestCommand(event.clientY - this.svg.getBoundingClientRect().top);
      if (index !== null) target = { kind: 'command', index };
    }
    const next = target === null ? null : { target, clientX: event.clientX, clientY: event.clientY };
    if (!sameTarget(next?.target, this.hover?.target) || next?.clientX !== this.hover?.clientX || next?.clientY !== this.hover?.clientY) {
      this.hover = next;
      this.requestPaint();
    }
  };

  private onPointerLeave = (): void => {
    if (this.hover?.clientX === null) return; // keyboard focus stays
    this.hover = null;
    this.requestPaint();
  };

  private onClick = (event: MouseEvent): void => {
    const mark = (event.target as Element | null)?.closest?.('[data-wire]');
    const ref = mark instanceof SVGElement ? parseWireKey(mark.dataset['wire'] ?? '') : null;
    if (ref) this.onWireClick?.(ref);
  };

  private onBlur = (): void => {
    if (this.hover?.clientX !== null) return;
    this.hover = null;
    this.requestPaint();
  };

  private onKeyDown = (event: KeyboardEvent): void => {
    const columns = this.columns;
    if (!columns || columns.n === 0) return;
    const current = this.hover?.target.kind === 'command' ? this.hover.target.index : -1;
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
    this.hover = index === null ? null : { target: { kind: 'command', index }, clientX: null, clientY: null };
    if (index !== null) this.scrollIntoView(index);
    this.requestPaint();
  };

  /** Pans (keeping the zoom) so that the focused command's request is inside the plot. */
  private scrollIntoView(index: number): void {
    if (this.columns) this.revealTime(this.columns.sentUs[index]!);
  }

  /** Pans (keeping the zoom) so that time `us` is inside the plot, centred if it was outside. */
  private revealTime(us: number): void {
    const scale = this.scale;
    if (!scale) return;
    const g = this.geometry;
    const y = scale(us);
    if (y >= g.plotTop && y <= g.plotBottom) return;
    const baseY = g.plotTop + ((us / this.domainEndUs) * (g.plotBottom - g.plotTop));
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
    const g = (this.geometry = diagramGeometry(this.width, DIAGRAM_HEIGHT, hasServerLane(columns)));
    const scale = (this.scale = timeScale(this.domainEndUs, g, this.zoom));
    const mode = chooseRenderMode(columns, scale);
    paintFrame(this.layers, g, axisTicks(scale), laneHeads(columns, mode));
    let drawn: number;
    if (mode === 'svg') {
      const layout = sequenceLayout(columns, scale, g);
      if (this.mode !== 'svg') clearCanvas(this.canvas);
      paintArrows(this.layers, layout);
      // The horizontal band only matches horizontal arrows; sloped (proxy, MONITOR) arrows keep just the badge.
      paintBundles(this.layers, g, layout.bundles, columns.toServerUs === null && columns.serverUs === null);
      paintMarks(this.layers, g, layout.marks);
      paintServerLane(this.layers, g, hasServerLane(columns) ? serverLaneLayout(columns, scale, g) : null);
      drawn = layout.commandsDrawn;
    } else {
      const layout = densityLayout(columns, scale, g);
      const ctx = sizeCanvas(this.canvas, g, window.devicePixelRatio || 1);
      if (ctx) paintDensity(ctx, layout, g, columns.n);
      paintArrows(this.layers, null);
      paintBundles(this.layers, g, layout.labels, false);
      paintMarks(this.layers, g, []);
      paintServerLane(this.layers, g, null);
      drawn = layout.commandsDrawn;
    }
    const selectedUs = this.selected ? this.eventTimeUs(this.selected) : null;
    paintSelection(this.layers, g, selectedUs === null ? null : { y: scale(selectedUs), side: this.selected!.source === 'syscall' ? 'server' : 'client' });
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
    const details = hover ? this.hoverDetails(columns, hover.target) : null;
    if (!hover || !details) {
      paintFocus(this.layers, g, null);
      if (this.tooltipShown) hideTooltip();
      this.tooltipShown = false;
      return;
    }
    let anchorY = g.plotTop;
    if (hover.target.kind === 'command') {
      const index = hover.target.index;
      const sentUs = columns.sentUs[index]!;
      const repliedUs = columns.repliedUs[index]!;
      const sentY = scale(sentUs);
      const repliedY = scale(repliedUs);
      const toServer = columns.toServerUs ?? columns.serverUs;
      const fromServer = columns.fromServerUs ?? columns.serverUs;
      paintFocus(this.layers, g, {
        sentY,
        repliedY,
        atServerY: toServer ? scale(toServer[index]!) : sentY,
        leftServerY: fromServer ? scale(fromServer[index]!) : repliedY,
        latencyLabel: formatUs(repliedUs - sentUs),
      });
      anchorY = sentY;
    } else {
      paintFocus(this.layers, g, null);
    }
    const rect = this.svg.getBoundingClientRect();
    const x = hover.clientX ?? rect.left + g.clientX + 24;
    const y = hover.clientY ?? rect.top + Math.min(g.plotBottom, Math.max(g.plotTop, anchorY));
    const keyboard = hover.clientX === null ? '↑ ↓ next command · Shift: ×10 · Esc: close' : undefined;
    showTooltip(details, x, y, keyboard);
    this.tooltipShown = true;
  }

  private hoverDetails(columns: TraceColumns, target: HoverTarget): CommandDetails | null {
    if (target.kind === 'command') return target.index < columns.n ? commandDetails(columns, target.index) : null;
    if (target.kind === 'syscall') return columns.syscalls && target.event < columns.syscalls.length ? syscallDetails(columns, target.event) : null;
    return target.event < columns.others.length ? otherDetails(columns, target.event) : null;
  }

  /** When a wire event happened, or null if the trace has no such event. */
  private eventTimeUs(ref: WireRef): number | null {
    const columns = this.columns;
    if (!columns) return null;
    const times = ref.source === 'write' ? columns.writeAtUs : ref.source === 'read' ? columns.readAtUs : columns.syscallAtUs;
    return ref.event < times.length ? times[ref.event]! : null;
  }
}

function sameTarget(a: HoverTarget | undefined, b: HoverTarget | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.kind === 'command' || b.kind === 'command') return a.kind === b.kind && (a as { index: number }).index === (b as { index: number }).index;
  return a.kind === b.kind && a.event === b.event;
}

/** Server-traced runs get the Redis lane right of the Redis lifeline. */
function hasServerLane(columns: TraceColumns): boolean {
  return columns.doc.serverTrace !== null;
}

function laneHeads(columns: TraceColumns, mode: RenderMode): LaneHeads {
  const { doc } = columns;
  const traced = doc.serverTrace !== null;
  const proxyNote = '— arrows end at the delay proxy’s hand-over to Redis';
  let serverNote = doc.proxy ? proxyNote : '— execution times not traced in this run';
  let serverLaneNote: string | null = null;
  if (traced) {
    // MONITOR and strace are separate choices (run.probes): say which this run had.
    const { monitor, strace } = doc.run.probes;
    const proxied = doc.proxy ? ' · arrows end at proxy hops' : '';
    serverNote = monitor ? `◆ executions from MONITOR, clock ±${formatUs(columns.clockUncertaintyUs)}${proxied}` : `— execution times not traced (MONITOR off)${proxied}`;
    // Short: it sits over the Redis lane, right of the lifeline's top; canvas mode's density note needs that line.
    if (mode === 'svg') serverLaneNote = columns.syscalls ? '▯ syscalls: strace' : strace ? 'strace unavailable' : 'strace off';
  }
  return {
    // The client's name without its parenthesised detail ("raw socket (pre-encoded RESP; …)"): the head has one lane's width.
    client: `Client · ${doc.recorder.client.replace(/\s*\(.*\)$/, '')}`,
    clientNote: mode === 'canvas' ? 'lane: in flight ▮, socket writes & reads' : 'lane: socket writes & reads',
    server: `Redis ${doc.redis.version}`,
    serverNote,
    serverLaneNote,
    densityNote: mode === 'canvas' ? `each ${DENSITY_ROW_PX} px row: requests → · ← replies · longer, darker = more` : null,
  };
}
