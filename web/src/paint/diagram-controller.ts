// Drives one sequence diagram outside React: owns its <svg>, <canvas> and live region, and composes the
// pieces that draw it and answer the user, each turning what happens into one repaint request:
//   - host-repaint.ts: repaints merged on the frame scheduler, the host's width from a ResizeObserver;
//   - interaction/time-zoom-input.ts: Ctrl/⌘ + wheel, pinch and drag zoom and pan (d3-zoom), shared through
//     the TimeZoomSync; a plain wheel scrolls the page, and the first one shows the zoom hint
//     (interaction/wheel-hint-policy.ts, wheel-hint-painter.ts);
//   - interaction/diagram-keys.ts: the keyboard cursor over every mark in time order (↑/↓, C/E/S/O, Esc)
//     and the zoom keys (] [ 0); ←/→, Home/End and +/- are left to the page's playback keys;
//   - layout/focus-layout.ts: which command the pointer is near, the hovered or focused mark's emphasis
//     and ring, where a keyboard tooltip goes, the pan that reveals a mark or a selected wire event;
//   - a playback clock (setPlayback): with its playhead set, only what had happened by then is drawn, with
//     the playhead and the messages in flight (layout/playback-layout.ts), repainting as the clock moves.
// A repaint runs layout (pure; every label of the frame placed at once by layout/diagram-labels-layout.ts,
// measured by paint/canvas-text-measure.ts) and then the painters; React renders the host element once and never
// re-renders for pan, zoom or hover. The focused mark gets a ring, its tooltip and its full sentence
// (format/mark-label.ts) in a polite live region, in SVG and canvas mode. A click on a write/read/syscall
// mark is reported through onWireClick (the wire view selects its row).
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { FrameScheduler } from '../base/frame-scheduler.ts';
import { markDetails } from '../format/mark-details.ts';
import { markLabel } from '../format/mark-label.ts';
import { DIAGRAM_KEYS_TEXT, KEYBOARD_HINT, diagramKeyAction } from '../interaction/diagram-keys.ts';
import type { PlaybackClock } from '../interaction/playback-clock.ts';
import { TimeZoomInput } from '../interaction/time-zoom-input.ts';
import type { TimeZoomSync, ZoomMember } from '../interaction/time-zoom-sync.ts';
import { wheelHintPolicy } from '../interaction/wheel-hint-policy.ts';
import { zoomHintText, type WheelIntent } from '../interaction/wheel-intent.ts';
import { clusterGeometry, type ClusterGeometry } from '../layout/cluster-geometry.ts';
import { clusterAtPlayhead, clusterDrawn, clusterHeads, clusterLayout } from '../layout/cluster-layout.ts';
import { densityLayout, type DensityLayout } from '../layout/density-layout.ts';
import { diagramLabels } from '../layout/diagram-labels-layout.ts';
import { DIAGRAM_HEIGHT, diagramGeometry, type DiagramGeometry } from '../layout/diagram-geometry.ts';
import { keyboardTooltipPoint, markFocus, nearestCommand, revealTy } from '../layout/focus-layout.ts';
import { laneHeads, type LaneHeads } from '../layout/lane-heads-layout.ts';
import { playbackMarks, sequenceAtPlayhead, serverLaneAtPlayhead } from '../layout/playback-layout.ts';
import { chooseRenderMode, type RenderMode } from '../layout/render-mode.ts';
import { sequenceLayout } from '../layout/sequence-layout.ts';
import { serverLaneLayout } from '../layout/server-lane-layout.ts';
import { axisTicks, maxZoom, timeScale, type TimeScale, type TimeZoom } from '../layout/time-scale-layout.ts';
import { clusterRun, type ClusterRun } from '../model/cluster-run.ts';
import { markExists, markTimeUs, type MarkRef } from '../model/diagram-marks.ts';
import { traceColumns, type TraceColumns } from '../model/trace-columns.ts';
import { parseWireKey, wireEventTimeUs, type WireRef } from '../model/wire-rows.ts';
import { CanvasTextMeasure } from './canvas-text-measure.ts';
import { createClusterLayers, paintCluster, type ClusterLayers } from './cluster-svg-painter.ts';
import { clearCanvas, paintDensity, sizeCanvas } from './density-canvas-painter.ts';
import { HostRepaint } from './host-repaint.ts';
import { createPlaybackLayer, paintPlayback, type PlaybackLayer } from './playback-painter.ts';
import {
  createSvgLayers, paintArrows, paintBundles, paintFocus, paintFocusRing, paintFrame, paintMarks, paintSelection, paintServerLane, svgElement,
  type SvgLayers,
} from './sequence-svg-painter.ts';
import { canvasColours, watchTheme } from './theme-colours.ts';
import { hideTooltip, showTooltip, type TooltipHost } from './tooltip-painter.ts';
import { hideWheelHint, showWheelHint } from './wheel-hint-painter.ts';

export { DIAGRAM_KEYS_TEXT, KEYBOARD_HINT } from '../interaction/diagram-keys.ts';

/** The mark under the pointer, or the keyboard cursor's. */
interface Hover {
  target: MarkRef;
  /** Where to put the tooltip, in client (viewport) coordinates; null = the keyboard cursor (tooltip beside the mark). */
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
  /** A cluster run's own marks (node lanes, sockets, redirects, the slot strip); made at its first paint, so a single Redis's SVG stays as it was. */
  private clusterLayers: ClusterLayers | null = null;
  private readonly repaint: HostRepaint;
  /** Label widths for the label placement, in the fonts this diagram's SVG uses. */
  private readonly textMeasure = new CanvasTextMeasure();
  private readonly zoomInput: TimeZoomInput;
  private columns: TraceColumns | null = null;
  private domainEndUs = 1;
  private hover: Hover | null = null;
  private tooltipShown = false;
  /** As last painted: the render mode, geometry and time scale (null before the first paint). */
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
    scheduler: FrameScheduler,
    label: string,
    private readonly place: DiagramPlace = {},
  ) {
    instances++;
    this.repaint = new HostRepaint(host, scheduler, () => this.paint());
    this.geometry = diagramGeometry(this.repaint.width);
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
    this.zoomInput = new TimeZoomInput(this.svg, this.geometry, this.onZoom, this.onWheel);

    this.svg.addEventListener('pointermove', this.onPointerMove);
    this.svg.addEventListener('pointerleave', this.onPointerLeave);
    this.svg.addEventListener('keydown', this.onKeyDown);
    this.svg.addEventListener('blur', this.onBlur);
    this.svg.addEventListener('click', this.onClick);
    this.zoomSync.join(this);
    // The SVG follows the theme through CSS; the canvas is repainted with the new theme's colours.
    this.unwatchTheme = watchTheme(() => this.repaint.request(), place.themeRoot);
    // Labels are placed by their measured widths: a font that finishes loading changes them.
    document.fonts?.addEventListener('loadingdone', this.onFontsLoaded);
  }

  private onFontsLoaded = (): void => {
    this.textMeasure.forget();
    this.repaint.request();
  };

  /**
   * A new document, or the same run grown (live drawing: a partial document per rebuild, same run id).
   * A grown run keeps its zoom, hover and focus; the SVG layers are reused, so a rebuild is one repaint.
   */
  setData(doc: TraceDocument, domainEndUs: number): void {
    const grown = this.columns?.doc.run.id === doc.run.id;
    this.columns = traceColumns(doc);
    this.domainEndUs = Math.max(1, domainEndUs);
    this.zoomInput.setMaxScale(maxZoom(this.domainEndUs, this.geometry));
    // A grown run (live drawing) keeps its zoom and its keyboard cursor on its mark; the pointer's target is found again on its next move.
    const hover = this.hover;
    if (!grown || hover === null || hover.clientX !== null || !markExists(this.columns, hover.target)) this.hover = null;
    this.repaint.request();
  }

  /** The wire event to ring; with reveal, pans (keeping the zoom) so that it is in view. */
  setSelection(ref: WireRef | null, reveal: boolean): void {
    this.selected = ref;
    const at = ref ? this.eventTimeUs(ref) : null;
    if (reveal && at !== null) this.revealTime(at);
    this.repaint.request();
  }

  /** The playhead to draw at (null: none, everything drawn); repaints whenever it moves. */
  setPlayback(clock: PlaybackClock | null): void {
    if (clock === this.playback) return;
    this.unsubscribePlayback?.();
    this.playback = clock;
    this.unsubscribePlayback = clock ? clock.subscribe(() => this.repaint.request()) : null;
    this.repaint.request();
  }

  /** Adopts the zoom another diagram (or a reset, or a link) chose. */
  applyZoom(zoom: TimeZoom): void {
    this.zoomInput.apply(zoom);
  }

  /** Zooms by `factor` about the plot's centre (the zoom buttons, through the TimeZoomSync). */
  scaleBy(factor: number): void {
    this.zoomInput.scaleBy(factor);
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
    document.fonts?.removeEventListener('loadingdone', this.onFontsLoaded);
    this.unsubscribePlayback?.();
    this.repaint.destroy();
    this.zoomInput.destroy();
    hideWheelHint(this.host);
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

  /** Any zoom or pan: the pointer's hover goes (its arrow moved away), the keyboard cursor stays. */
  private onZoom = (zoom: TimeZoom, external: boolean): void => {
    if (this.hover?.clientX !== null) this.hover = null;
    if (!external) this.zoomSync.set(zoom, this);
    this.repaint.request();
  };

  /**
   * A plain wheel scrolls the page; the page's first one over a diagram says how to zoom instead. The page
   * moves under a still pointer, so the pointer's tooltip goes (its mark moved away); the next move finds it again.
   */
  private onWheel = (intent: WheelIntent, event: WheelEvent): void => {
    if (intent.kind === 'zoom') {
      wheelHintPolicy.zoomedWithWheel();
      return;
    }
    if (intent.kind !== 'page') return;
    if (this.hover !== null && this.hover.clientX !== null) {
      this.hover = null;
      this.repaint.request();
    }
    if (intent.vertical && wheelHintPolicy.takeHint()) {
      showWheelHint(this.host, event.clientY - this.host.getBoundingClientRect().top, zoomHintText(navigator.platform));
    }
  };

  /** The keyboard cursor's mark; null when it is on none (the pointer's hover is not a cursor). */
  private get keyboardCursor(): MarkRef | null {
    return this.hover?.clientX === null ? this.hover.target : null;
  }

  private onPointerMove = (event: PointerEvent): void => {
    const columns = this.columns;
    const scale = this.scale;
    if (!columns || !scale || event.buttons !== 0) return;
    const element = event.target as Element | null;
    const onEvent = element?.closest?.('[data-hover]');
    const onCommand = element?.closest?.('[data-index]');
    let target: MarkRef | null = null;
    if (onEvent instanceof SVGElement) {
      const [kind, k] = (onEvent.dataset['hover'] ?? '').split(':');
      if (kind === 'syscall' || kind === 'other') target = { kind, index: Number(k) };
    } else if (onCommand instanceof SVGElement && onCommand.dataset['index'] !== undefined) {
      target = { kind: 'command', index: Number(onCommand.dataset['index']) };
    } else {
      const index = nearestCommand(columns, scale, event.clientY - this.svg.getBoundingClientRect().top);
      if (index !== null) target = { kind: 'command', index };
    }
    const next = target === null ? null : { target, clientX: event.clientX, clientY: event.clientY };
    if (!sameTarget(next?.target, this.hover?.target) || next?.clientX !== this.hover?.clientX || next?.clientY !== this.hover?.clientY) {
      this.hover = next;
      this.repaint.request();
    }
  };

  private onPointerLeave = (): void => {
    if (this.hover?.clientX === null) return; // keyboard focus stays
    this.hover = null;
    this.repaint.request();
  };

  private onClick = (event: MouseEvent): void => {
    const mark = (event.target as Element | null)?.closest?.('[data-wire]');
    const ref = mark instanceof SVGElement ? parseWireKey(mark.dataset['wire'] ?? '') : null;
    if (ref) this.onWireClick?.(ref);
  };

  private onBlur = (): void => {
    if (this.hover?.clientX !== null) return;
    this.hover = null;
    this.repaint.request();
  };

  private onKeyDown = (event: KeyboardEvent): void => {
    const columns = this.columns;
    if (!columns) return;
    const action = diagramKeyAction(event, columns, this.keyboardCursor);
    if (action === null) return;
    event.preventDefault();
    switch (action.kind) {
      case 'zoom-by':
        this.zoomInput.scaleBy(action.factor);
        return;
      case 'zoom-reset':
        this.zoomSync.reset();
        return;
      case 'cursor':
        this.hover = action.mark === null ? null : { target: action.mark, clientX: null, clientY: null };
        if (action.mark !== null) this.revealTime(markTimeUs(columns, action.mark));
        this.repaint.request();
    }
  };

  /** Pans (keeping the zoom) so that time `us` is inside the plot, centred if it was outside. */
  private revealTime(us: number): void {
    const scale = this.scale;
    if (!scale) return;
    const ty = revealTy(us, scale, this.geometry, this.domainEndUs, this.zoomInput.zoom.k);
    if (ty !== null) this.zoomInput.panTo(ty);
  }

  private paint(): void {
    const columns = this.columns;
    if (!columns) return;
    const cluster = clusterRun(columns.doc);
    const g = (this.geometry = cluster
      ? clusterGeometry(this.repaint.width, cluster)
      : diagramGeometry(this.repaint.width, DIAGRAM_HEIGHT, hasServerLane(columns)));
    const scale = (this.scale = timeScale(this.domainEndUs, g, this.zoomInput.zoom));
    const mode = chooseRenderMode(columns, scale);
    const heads = laneHeads(columns, mode);
    const ticks = axisTicks(scale);
    this.textMeasure.useFontsOf(this.svg);
    // Playback: the playhead (µs since t0) and whether messages glide (false under reduced motion: they appear at their destination).
    const atUs = this.playback?.getSnapshot().positionUs ?? null;
    const gliding = !(this.playback?.discrete ?? false);
    const playheadY = atUs === null ? 0 : scale(atUs);
    let drawn: number;
    if (cluster) {
      drawn = this.paintClusterRun(columns, cluster, scale, g as ClusterGeometry, mode, atUs, ticks, heads);
    } else if (mode === 'svg') {
      const full = sequenceLayout(columns, scale, g);
      const lane = hasServerLane(columns) ? serverLaneLayout(columns, scale, g) : null;
      // Labels are placed for the whole frame, so playback shows each where it will stay.
      const labels = diagramLabels({ g, heads, sequence: full, densityLabels: null, lane }, this.textMeasure.measure).placed;
      const layout = atUs === null ? full : sequenceAtPlayhead(full, columns, atUs, playheadY, !gliding);
      if (this.mode !== 'svg') clearCanvas(this.canvas);
      paintFrame(this.layers, g, ticks, heads, labels);
      paintArrows(this.layers, layout, labels);
      // The horizontal band only matches horizontal arrows; sloped (proxy, MONITOR) arrows keep just the badge.
      paintBundles(this.layers, g, layout.bundles, columns.toServerUs === null && columns.serverUs === null, labels);
      paintMarks(this.layers, g, layout.marks, labels);
      paintServerLane(this.layers, g, lane && atUs !== null ? serverLaneAtPlayhead(lane, columns, atUs) : lane, labels);
      drawn = layout.commandsDrawn;
      this.canvas.style.clipPath = '';
    } else {
      const layout = this.paintDensityBands(columns, scale, g, atUs, playheadY);
      const labels = diagramLabels({ g, heads, sequence: null, densityLabels: layout.labels, lane: null }, this.textMeasure.measure).placed;
      paintFrame(this.layers, g, ticks, heads, labels);
      paintArrows(this.layers, null, labels);
      paintBundles(this.layers, g, layout.labels, false, labels);
      paintMarks(this.layers, g, [], labels);
      paintServerLane(this.layers, g, null, labels);
      drawn = layout.commandsDrawn;
    }
    if (!cluster && this.clusterLayers) paintCluster(this.clusterLayers, null, null);
    const selectedUs = this.selected ? this.eventTimeUs(this.selected) : null;
    paintSelection(this.layers, g, selectedUs === null ? null : { y: scale(selectedUs), side: this.selected!.source === 'syscall' ? 'server' : 'client' });
    // A cluster run's messages go to several nodes: the playhead alone, no dots gliding to one Redis.
    paintPlayback(this.playbackLayer, g, atUs === null ? null : playbackMarks(columns, scale, g, atUs, gliding && !cluster));
    this.mode = mode;
    const panel = this.panel.current;
    if (panel) {
      panel.dataset['render'] = mode;
      panel.dataset['commandsDrawn'] = String(drawn);
    }
    this.paintHover(columns, scale, g, cluster !== null);
  }

  /** Canvas mode: the dense bands, cut at the playhead (the caller clears or keeps the SVG marks). */
  private paintDensityBands(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry, atUs: number | null, playheadY: number): DensityLayout {
    const layout = densityLayout(columns, scale, g);
    const ctx = sizeCanvas(this.canvas, g, window.devicePixelRatio || 1);
    if (ctx) paintDensity(ctx, layout, g, columns.n, canvasColours(this.place.themeRoot));
    // Playback: the bands are cut at the playhead (CSS px from the canvas's bottom edge) rather than recounted.
    this.canvas.style.clipPath = atUs === null ? '' : `inset(0 0 ${Math.max(0, g.height - Math.max(g.plotTop, playheadY))}px 0)`;
    return layout;
  }

  /**
   * A cluster run: node lifelines, socket lanes, arrows, redirects and the slot strip (cluster-layout.ts).
   * Dense, the arrows give way to the canvas's bands, and the lanes, redirects and strip stay. Returns the commands drawn.
   */
  private paintClusterRun(
    columns: TraceColumns,
    cluster: ClusterRun,
    scale: TimeScale,
    g: ClusterGeometry,
    mode: RenderMode,
    atUs: number | null,
    ticks: ReturnType<typeof axisTicks>,
    runHeads: LaneHeads,
  ): number {
    const heads = clusterHeads(runHeads, cluster);
    const layers = (this.clusterLayers ??= createClusterLayers(this.layers));
    // Dense, the arrows and socket marks give way to the canvas's bands.
    const full = clusterDrawn(clusterLayout(columns, cluster, scale, g), mode);
    const layout = atUs === null ? full : clusterAtPlayhead(full, columns, atUs);
    // Every label of the frame in one placement (the lane heads and the cluster's own), for the whole run, so
    // playback shows each where it will stay; the single-Redis marks are cleared.
    const labels = diagramLabels({ g, heads, sequence: null, densityLabels: null, lane: null, cluster: { g, layout: full, densityNote: runHeads.densityNote } }, this.textMeasure.measure).placed;
    paintFrame(this.layers, g, ticks, heads, labels);
    paintArrows(this.layers, null, labels);
    paintBundles(this.layers, g, [], false, labels);
    paintMarks(this.layers, g, [], labels);
    paintServerLane(this.layers, g, null, labels);
    if (mode === 'svg') {
      if (this.mode !== 'svg') clearCanvas(this.canvas);
      this.canvas.style.clipPath = '';
      paintCluster(layers, g, layout, labels);
      return layout.commandsDrawn;
    }
    const bands = this.paintDensityBands(columns, scale, g, atUs, atUs === null ? 0 : scale(atUs));
    paintCluster(layers, g, layout, labels);
    return bands.commandsDrawn;
  }

  private paintHover(columns: TraceColumns, scale: TimeScale, g: DiagramGeometry, cluster: boolean): void {
    const hover = this.hover;
    const details = hover ? markDetails(columns, hover.target) : null;
    const keyboard = hover !== null && details !== null && hover.clientX === null;
    this.announce(keyboard ? markLabel(columns, hover.target) : null);
    if (!hover || !details) {
      paintFocus(this.layers, g, null);
      paintFocusRing(this.layers, null);
      if (this.tooltipShown) hideTooltip(this.place.tooltipHost);
      this.tooltipShown = false;
      return;
    }
    const focus = markFocus(columns, scale, g, hover.target, keyboard);
    // A cluster run's arrows go to several lifelines: the emphasis between the client and one Redis would mislead.
    paintFocus(this.layers, g, cluster ? null : focus.marks);
    paintFocusRing(this.layers, focus.ring);
    const rect = this.svg.getBoundingClientRect();
    const beside = keyboardTooltipPoint(hover.target.kind, focus.anchorY, g, rect.left, rect.top);
    showTooltip(details, hover.clientX ?? beside.x, hover.clientY ?? beside.y, keyboard ? KEYBOARD_HINT : undefined, this.place.tooltipHost);
    this.tooltipShown = true;
  }

  /** Writes the focused mark's sentence into the live region once per change (a repaint must not repeat it). */
  private announce(text: string | null): void {
    if (text === this.announced) return;
    this.announced = text;
    this.live.textContent = text ?? '';
  }

  /** When a wire event happened, or null if the trace has no such event. */
  private eventTimeUs(ref: WireRef): number | null {
    return this.columns ? wireEventTimeUs(this.columns, ref) : null;
  }
}

function sameTarget(a: MarkRef | undefined, b: MarkRef | undefined): boolean {
  if (!a || !b) return a === b;
  return a.kind === b.kind && a.index === b.index;
}

/** Server-traced runs get the Redis lane right of the Redis lifeline. */
function hasServerLane(columns: TraceColumns): boolean {
  return columns.doc.serverTrace !== null;
}
