// How the pointer zooms and pans one diagram: d3-zoom on its <svg>, y only (time), in plot px (see
// layout/diagram-geometry.ts). Ctrl/⌘ + wheel (and a trackpad pinch, which arrives as one) zooms about
// the pointer; a plain wheel is left to the page, which scrolls (wheel-intent.ts says which wheel does
// what); a horizontal wheel or Shift + wheel pans through time while zoomed in; a drag pans, a double click
// zooms in; on a touch screen one finger scrolls the page and two pinch or pan. These and scaleBy keep
// the zoom between 1× and the deepest the run allows (setMaxScale, from layout/time-scale-layout.ts
// maxZoom) and the timeline filling the plot (translateExtent), while apply and panTo set the zoom they
// are given. Which events zoom and pan is decided here and nowhere else.
//
// Every change of zoom, whoever made it, reaches onZoom: `external` says whether it was adopted with
// apply() (another diagram's zoom, through interaction/time-zoom-sync.ts), which the owner must not pass
// back on; the wheel, a drag, scaleBy() and panTo() are this diagram's own. Changes arrive synchronously.
// Every wheel over the diagram is told to onWheel with what it was for (the owner shows the zoom hint).
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import { IDENTITY_ZOOM, type TimeZoom } from '../layout/time-scale-layout.ts';
import { wheelIntent, zoomWheelExponent, type WheelIntent } from './wheel-intent.ts';

/** The plot's top and bottom (plot px), which bound the pan. */
export interface ZoomPlot {
  plotTop: number;
  plotBottom: number;
}

export class TimeZoomInput {
  private readonly behavior: ZoomBehavior<SVGSVGElement, unknown>;
  private current: TimeZoom = IDENTITY_ZOOM;
  private applyingExternal = false;

  constructor(
    private readonly svg: SVGSVGElement,
    plot: ZoomPlot,
    onZoom: (zoom: TimeZoom, external: boolean) => void,
    private readonly onWheel: (intent: WheelIntent, event: WheelEvent) => void = () => {},
  ) {
    // Before d3-zoom's own listener, which stops the events it zooms on from reaching later listeners.
    this.svg.addEventListener('wheel', this.onWheelEvent, { passive: false });
    this.behavior = d3zoom<SVGSVGElement, unknown>()
      .filter((event: Event) => this.takes(event))
      .wheelDelta((event: WheelEvent) => zoomWheelExponent(event))
      .extent([[0, plot.plotTop], [1, plot.plotBottom]])
      .translateExtent([[0, plot.plotTop], [1, plot.plotBottom]])
      .scaleExtent([1, 50])
      .on('zoom', (event: D3ZoomEvent<SVGSVGElement, unknown>) => {
        this.current = { k: event.transform.k, ty: event.transform.y };
        onZoom(this.current, this.applyingExternal);
      });
    select(this.svg).call(this.behavior);
  }

  /** The zoom as it stands: k ≥ 1, ty in plot px. */
  get zoom(): TimeZoom {
    return this.current;
  }

  /** How deep the wheel and scaleBy may zoom (1 to maxScale). */
  setMaxScale(maxScale: number): void {
    this.behavior.scaleExtent([1, maxScale]);
  }

  /** Adopts a zoom chosen elsewhere (another diagram, a reset, a link): onZoom hears it as external. */
  apply(zoom: TimeZoom): void {
    this.applyingExternal = true;
    try {
      select(this.svg).call(this.behavior.transform, zoomIdentity.translate(0, zoom.ty).scale(zoom.k));
    } finally {
      this.applyingExternal = false;
    }
  }

  /** Zooms by `factor` about the plot's centre (the keyboard's ] and [). */
  scaleBy(factor: number): void {
    select(this.svg).call(this.behavior.scaleBy, factor);
  }

  /** Pans to translation ty (plot px), keeping the zoom factor; ty is taken as given (see above). */
  panTo(ty: number): void {
    select(this.svg).call(this.behavior.transform, zoomIdentity.translate(0, ty).scale(this.current.k));
  }

  /** Stops listening to the pointer. */
  destroy(): void {
    this.svg.removeEventListener('wheel', this.onWheelEvent);
    select(this.svg).on('.zoom', null);
  }

  private get zoomedIn(): boolean {
    return this.current.k > 1;
  }

  /**
   * Which events d3-zoom acts on: a wheel only to zoom (Ctrl/⌘ or a pinch), a touch only with two fingers
   * (one finger scrolls the page: see the diagram's touch-action in paint/diagram.css), and otherwise its
   * default: no secondary button, no Ctrl + click.
   */
  private takes(event: Event): boolean {
    if (event instanceof WheelEvent) return wheelIntent(event, this.zoomedIn).kind === 'zoom';
    if (event.type === 'touchstart') return (event as TouchEvent).touches.length >= 2;
    const mouse = event as MouseEvent;
    return !mouse.ctrlKey && !mouse.button;
  }

  /** A horizontal wheel pans while zoomed in (and is then not the page's); every wheel is told to onWheel. */
  private onWheelEvent = (event: WheelEvent): void => {
    const intent = wheelIntent(event, this.zoomedIn);
    if (intent.kind === 'pan') {
      event.preventDefault();
      select(this.svg).call(this.behavior.translateBy, 0, -intent.px / this.current.k);
    }
    this.onWheel(intent, event);
  };
}
