// Drives one sequence diagram outside React: owns its <svg> and <canvas>, the d3-zoom behaviour, the
// hover/keyboard focus, the selected wire event and the width from a ResizeObserver, and turns each of
// those into a repaint request to the frame scheduler. A repaint runs layout (pure) and then the
// painters; React renders the host element once and never re-renders for pan, zoom or hover. A click on
// a write/read/syscall mark is reported through onWireClick (the wire view selects its row).
// The keyboard cursor walks every mark in time order (model/diagram-marks.ts): ↑/↓ (Shift ×10), c/e/s/o
// for the next command / execution / syscall / other client's command (Shift: previous), Esc leaves;
// ] and [ zoom, 0 resets. ←/→, Home/End and +/- are left to the page's playback keys. The focused mark
// gets a ring and its full sentence (format/mark-label.ts) in a polite live region, in SVG and canvas mode.
// With a playback clock (setPlayback) and its playhead set, it draws only what had happened by then,
// the playhead and the messages in flight (layout/playback-layout.ts), repainting as the clock moves.
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { commandDetails, type CommandDetails } from '../format/command-details.ts';
import { markLabel } from '../format/mark-label.ts';
import { otherDetails, syscallDetails } from '../format/server-event-details.ts';
import { formatUs } from '../format/number-format.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import type { PlaybackClock } from '../interaction/playback-clock.ts';
import { playbackMarks, sequenceAtPlayhead, serverLaneAtPlayhead } from '../layout/playback-layout.ts';
import { DENSITY_ROW_PX, densityLayout } from '../layout/density-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from '../layout/diagram-geometry.ts';
import { chooseRenderMode, type RenderMode } from '../layout/render-mode.ts';
import { sequenceLayout } from '../layout/sequence-layout.ts';
import { serverLaneLayout } from '../layout/server-lane-layout.ts';
import { lowerBound } from '../base/sorted-search.ts';
import { IDENTITY_ZOOM, axisTicks, maxZoom, timeScale, type TimeScale, type TimeZoom } from '../layout/time-scale-layout.ts';
import { traceColumns, type TraceColumns } from '../model/trace-columns.ts';
import { parseWireKey, type WireRef } from '../model/wire-rows.ts';
import { markExists, markTimeUs, stepMark, type MarkKind, type MarkRef } from '../model/diagram-marks.ts';
import { clearCanvas, paintDensity, sizeCanvas } from './density-canvas-painter.ts';
import type { FrameScheduler } from '../base/frame-scheduler.ts';
import {
  createSvgLayers, paintArrows, paintBundles, paintFocus, paintFocusRing, paintFrame, paintMarks, paintSelection, paintServerLane, svgElement,
  type FocusRing, type LaneHeads, type SvgLayers,
} from './sequence-svg-painter.ts';
import { hideTooltip, showTooltip, type TooltipHost } from './tooltip-painter.ts';
import { canvasColours, watchTheme } from './theme-colours.ts';
import { createPlaybackLayer, paintPlayback, type PlaybackLayer } from './playback-painter.ts';

/** How close (px) the pointer must be to an arrow for the nearest-arrow lookup to pick it. */
const HOVER_RADIUS_PX = 8;

/** A mark under the pointer or the keyboard cursor: a command (its arrows), its execution, a syscall or another client's command. */
type HoverTarget = MarkRef;

/** The keys that jump to the next mark of one kind (with Shift: the previous one). */
const KIND_KEYS: Readonly<Record<string, MarkKind>> = { c: 'command', e: 'execution', s: 'syscall', o: 'other' };

/** What the diagram's keys do, for its aria-label (screen readers) and the keyboard tooltip (sighted users). */
export const DIAGRAM_KEYS_TEXT =
  '↑ and ↓ step through every mark in time order (Shift: 10 at a time); C, E, S, O jump to the next command, Redis execution, syscall or other client’s command (Shift: the previous); ] and [ zoom in and out, 0 resets; Esc leaves the marks.';
export const KEYBOARD_HINT = '↑ ↓ next mark · Shift ×10 · C E S O: command, execution, syscall, other client (Shift: back) · ] [ 0: zoom · Esc';

interface Hover {
  target: HoverTarget;
  /** Where to put the tooltip, in client (viewport) coordinates; null = beside the arrow (keyboard). */
  clientX: number | null;
  clientY: number | null;
}

let instances = 0;

/** Where a diagram lives when it is not in the app's document: a <pipescope-player>'s shadow root. */
export interface DiagramPlace {
  /** Where the tooltip goes (default: document.body). */
  tooltipHost?: TooltipHost;
  /** The element whose CSS variables and data-theme give the canvas its colours (default: <html>). */
  themeRoot?: HTMLElement;
}

/** The controller drawing into each diagram host, for the exports (diagram-export-svg.ts), which find diagrams in the page. */
const controllers = new WeakMap<Element, DiagramController>();

/** The controller that draws into `host` (a .diagram-host), if one does. */
export function diagramControllerOf(host: Element): DiagramController | undefined {
  return controllers.get(host);
}

/** What an export needs of a diagram as painted: its SVG, its size, and in canvas mode the dense bands as pixels. */
export interface DiagramSnapshot {
  svg: SVGSVGElement;
  width: number;
  height: number;
  mode: RenderMode;
  /** Canvas mode: the dense bands repainted at the pixel ratio asked for, as a PNG data URL; null in SVG mode. */
  canvasPng: string | null;
  /** CSS px of the canvas shown from its top (playback cuts the bands at the playhead); null = all of it. */
  canvasShownPx: number | null;
}

export class DiagramController implements ZoomMember {
  private readonly canvas: HTMLCanvasElement;
  private readonly unwatchTheme: () => void;
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
  /** A polite live region: the full label of the mark the keyboard cursor lands on. */
  private readonly live: HTMLDivElement;
  private announced: string | null = null;
  private readonly playbackLayer: PlaybackLayer;
  private playback: PlaybackClock | null = null;
  private unsubscribePlayback: (() => void) | null = null;
  /** Called with the wire event whose mark was clicked. */
  onWireClick: ((ref: WireRef) => void) | null = null;

  constructor(
    private readonly host: HTMLElement,
    /** Read at paint time: the panel's ref is attached after this diagram's layout effect runs. */
    private readonly panel: { readonly current: HTMLElement | null },
    private readonly zoomSync: TimeZoomSync,
    private readonly scheduler: FrameScheduler,
    label: string,
    private readonly place: DiagramPlace = {},
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
    this.svg.setAttribute('aria-label', `${label}. ${DIAGRAM_KEYS_TEXT}`);
    this.live = document.createElement('div');
    this.live.className = 'visually-hidden';
    this.live.dataset['testid'] = 'diagram-live';
    this.live.setAttribute('aria-live', 'polite');
    this.live.setAttribute('aria-atomic', 'true');
    host.append(this.canvas, this.svg, this.live);
    controllers.set(host, this);
    this.layers = createSvgLayers(this.svg, `diagram${instances}`);
    this.playbackLayer = createPlaybackLayer(this.layers);

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
    // The SVG follows the theme through CSS; the canvas is repainted with the new theme's colours.
    this.unwatchTheme = watchTheme(() => this.requestPaint(), place.themeRoot);
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
    // A grown run (live drawing) keeps its zoom and its keyboard cursor on its mark; the pointer's target is found again on its next move.
    const hover = this.hover;
    if (!grown || hover === null || hover.clientX !== null || !markExists(this.columns, hover.target)) this.hover = null;
    this.requestPaint();
  }

  /** The wire event to ring; with reveal, pans (keeping the zoom) so that it is in view. */
  setSelection(ref: WireRef | null, reveal: boolean): void {
    this.selected = ref;
    const at = ref ? this.eventTimeUs(ref) : null;
    if (reveal && at !== null) this.revealTime(at);
    this.requestPaint();
  }

  /** The playhead to draw at (null: none, everything drawn); repaints whenever it moves. */
  setPlayback(clock: PlaybackClock | null): void {
    if (clock === this.playback) return;
    this.unsubscribePlayback?.();
    this.playback = clock;
    this.unsubscribePlayback = clock ? clock.subscribe(() => this.requestPaint()) : null;
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

  /**
   * The diagram as last painted, for an export. In canvas mode the dense bands are painted again, from the
   * same layout and the theme's resolved colours, into a canvas of their own at `pixelRatio` (2 for a 2× PNG),
   * so an export is sharp whatever the screen's devicePixelRatio.
   */
  snapshot(pixelRatio: number): DiagramSnapshot | null {
    const columns = this.columns;
    const scale = this.scale;
    if (!columns || !scale || this.mode === null) return null;
    const g = this.geometry;
    let canvasPng: string | null = null;
    if (this.mode === 'canvas') {
      const canvas = document.createElement('canvas');
      const ctx = sizeCanvas(canvas, g, pixelRatio);
      if (ctx) paintDensity(ctx, densityLayout(columns, scale, g), g, columns.n, canvasColours());
      canvasPng = canvas.toDataURL('image/png');
    }
    const clip = /inset\(0(?:px)? 0(?:px)? ([\d.]+)px 0(?:px)?\)/.exec(this.canvas.style.clipPath);
    return { svg: this.svg, width: g.width, height: g.height, mode: this.mode, canvasPng, canvasShownPx: clip ? g.height - Number(clip[1]) : null };
  }

  destroy(): void {
    controllers.delete(this.host);
    this.zoomSync.leave(this);
    this.unwatchTheme();
    this.unsubscribePlayback?.();
    this.scheduler.cancel(this);
    this.resizeObserver?.disconnect();
    select(this.svg).on('.zoom', null);
    this.svg.removeEventListener('pointermove', this.onPointerMove);
    this.svg.removeEventListener('pointerleave', this.onPointerLeave);
    this.svg.removeEventListener('keydown', this.onKeyDown);
    this.svg.removeEventListener('blur', this.onBlur);
    this.svg.removeEventListener('click', this.onClick);
    if (this.tooltipShown) hideTooltip(this.place.tooltipHost);
    this.canvas.remove();
    this.svg.remove();
    this.live.remove();
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
      if (kind === 'syscall' || kind === 'other') target = { kind, index: Number(k) };
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
    // Modified keys belong to the browser and the page; ←/→, Home/End and +/- to the playback keys.
    if (!columns || event.ctrlKey || event.metaKey || event.altKey) return;
    const current = this.hover?.clientX === null ? this.hover.target : null;
    let next: MarkRef | null;
    const kind = KIND_KEYS[event.key.toLowerCase()];
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        const steps = (event.key === 'ArrowDown' ? 1 : -1) * (event.shiftKey ? 10 : 1);
        next = current === null && steps < 0 ? stepMark(columns, null, 1) : stepMark(columns, current, steps);
        break;
      }
      case 'Escape':
        if (current === null) return; // nothing to leave: Esc is the page's
        next = null;
        break;
      case ']':
        select(this.svg).call(this.zoomBehavior.scaleBy, 2);
        event.preventDefault();
        return;
      case '[':
        select(this.svg).call(this.zoomBehavior.scaleBy, 0.5);
        event.preventDefault();
        return;
      case '0':
        this.zoomSync.reset();
        event.preventDefault();
        return;
      default:
        if (kind === undefined) return;
        next = stepMark(columns, current, event.shiftKey ? -1 : 1, kind);
        // No mark of that kind (the run has no strace, say): the cursor stays, and the key is still the diagram's.
        if (next !== null && next.kind !== kind) next = current;
    }
    event.preventDefault();
    this.hover = next === null ? null : { target: next, clientX: null, clientY: null };
    if (next !== null) this.revealTime(markTimeUs(columns, next));
    this.requestPaint();
  };

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
    // Playback: the playhead (µs since t0) and whether messages glide (false under reduced motion: they appear at their destination).
    const atUs = this.playback?.getSnapshot().positionUs ?? null;
    const gliding = !(this.playback?.discrete ?? false);
    const playheadY = atUs === null ? 0 : scale(atUs);
    let drawn: number;
    if (mode === 'svg') {
      const full = sequenceLayout(columns, scale, g);
      const layout = atUs === null ? full : sequenceAtPlayhead(full, columns, atUs, playheadY, !gliding);
      if (this.mode !== 'svg') clearCanvas(this.canvas);
      paintArrows(this.layers, layout);
      // The horizontal band only matches horizontal arrows; sloped (proxy, MONITOR) arrows keep just the badge.
      paintBundles(this.layers, g, layout.bundles, columns.toServerUs === null && columns.serverUs === null);
      paintMarks(this.layers, g, layout.marks);
      const lane = hasServerLane(columns) ? serverLaneLayout(columns, scale, g) : null;
      paintServerLane(this.layers, g, lane && atUs !== null ? serverLaneAtPlayhead(lane, columns, atUs) : lane);
      drawn = layout.commandsDrawn;
      this.canvas.style.clipPath = '';
    } else {
      const layout = densityLayout(columns, scale, g);
      const ctx = sizeCanvas(this.canvas, g, window.devicePixelRatio || 1);
      if (ctx) paintDensity(ctx, layout, g, columns.n, canvasColours(this.place.themeRoot));
      // Playback: the bands are cut at the playhead (CSS px from the canvas's bottom edge) rather than recounted.
      this.canvas.style.clipPath = atUs === null ? '' : `inset(0 0 ${Math.max(0, g.height - Math.max(g.plotTop, playheadY))}px 0)`;
      paintArrows(this.layers, null);
      paintBundles(this.layers, g, layout.labels, false);
      paintMarks(this.layers, g, []);
      paintServerLane(this.layers, g, null);
      drawn = layout.commandsDrawn;
    }
    const selectedUs = this.selected ? this.eventTimeUs(this.selected) : null;
    paintSelection(this.layers, g, selectedUs === null ? null : { y: scale(selectedUs), side: this.selected!.source === 'syscall' ? 'server' : 'client' });
    paintPlayback(this.playbackLayer, g, atUs === null ? null : playbackMarks(columns, scale, g, atUs, gliding));
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
    const keyboard = hover !== null && details !== null && hover.clientX === null;
    this.announce(keyboard ? markLabel(columns, hover.target) : null);
    if (!hover || !details) {
      paintFocus(this.layers, g, null);
      paintFocusRing(this.layers, null);
      if (this.tooltipShown) hideTooltip(this.place.tooltipHost);
      this.tooltipShown = false;
      return;
    }
    const target = hover.target;
    let anchorY = scale(markTimeUs(columns, target));
    if (target.kind === 'command') {
      const index = target.index;
      const sentUs = columns.sentUs[index]!;
      const repliedUs = columns.repliedUs[index]!;
      const sentY = scale(sentUs);
      const repliedY = scale(repliedUs);
      const toServer = columns.toServerUs ?? columns.serverUs;
      const fromServer = columns.fromServerUs ?? columns.serverUs;
      const focus = {
        sentY,
        repliedY,
        atServerY: toServer ? scale(toServer[index]!) : sentY,
        leftServerY: fromServer ? scale(fromServer[index]!) : repliedY,
        latencyLabel: formatUs(repliedUs - sentUs),
      };
      paintFocus(this.layers, g, focus);
      anchorY = sentY;
      const top = Math.min(focus.sentY, focus.atServerY);
      const bottom = Math.max(focus.repliedY, focus.leftServerY);
      paintFocusRing(this.layers, keyboard ? { kind: 'command', x: g.clientX - 6, y: top - 7, width: g.serverX - g.clientX + 12, height: bottom - top + 14 } : null);
    } else {
      paintFocus(this.layers, g, null);
      paintFocusRing(this.layers, keyboard ? serverSideRing(target.kind, g, anchorY) : null);
    }
    const rect = this.svg.getBoundingClientRect();
    const x = hover.clientX ?? rect.left + (target.kind === 'command' ? g.clientX : g.serverX) + 24;
    const y = hover.clientY ?? rect.top + Math.min(g.plotBottom, Math.max(g.plotTop, anchorY));
    showTooltip(details, x, y, keyboard ? KEYBOARD_HINT : undefined, this.place.tooltipHost);
    this.tooltipShown = true;
  }

  /** Writes the focused mark's sentence into the live region once per change (a repaint must not repeat it). */
  private announce(text: string | null): void {
    if (text === this.announced) return;
    this.announced = text;
    this.live.textContent = text ?? '';
  }

  private hoverDetails(columns: TraceColumns, target: HoverTarget): CommandDetails | null {
    if (!markExists(columns, target)) return null;
    if (target.kind === 'command' || target.kind === 'execution') return commandDetails(columns, target.index);
    if (target.kind === 'syscall') return syscallDetails(columns, target.index);
    return otherDetails(columns, target.index);
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
  return a.kind === b.kind && a.index === b.index;
}

/** The keyboard focus ring around a mark on the Redis side (plot px): the execution diamond, the syscall box, the other client's dot. */
function serverSideRing(kind: Exclude<MarkKind, 'command'>, g: DiagramGeometry, y: number): FocusRing {
  const x = kind === 'execution' ? g.serverX - 8 : kind === 'syscall' ? g.serverX + 2.5 : g.serverX - 16;
  const width = kind === 'syscall' ? 16 : 15;
  return { kind, x, y: y - 7.5, width, height: 15 };
}

/** Server-traced runs get the Redis lane right of the Redis lifeline. */
function hasServerLane(columns: TraceColumns): boolean {
  return columns.doc.serverTrace !== null;
}

function laneHeads(columns: TraceColumns, mode: RenderMode): LaneHeads {
  const { doc } = columns;
  const traced = doc.serverTrace !== null;
  const proxyNote = doc.run.observed ? '— arrows end at the observing proxy’s hand-over to Redis' : '— arrows end at the delay proxy’s hand-over to Redis';
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
    clientNote: doc.run.observed
      ? (mode === 'canvas' ? 'lane: in flight ▮, chunks at the proxy' : 'lane: the client’s chunks, at the proxy')
      : mode === 'canvas' ? 'lane: in flight ▮, socket writes & reads' : 'lane: socket writes & reads',
    server: `Redis ${doc.redis.version}`,
    serverNote,
    serverLaneNote,
    densityNote: mode === 'canvas' ? `each ${DENSITY_ROW_PX} px row: requests → · ← replies · longer, darker = more` : null,
  };
}
