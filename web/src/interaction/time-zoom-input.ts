// How the pointer zooms and pans one diagram: d3-zoom on its <svg>, y only (time), in plot px (see
// layout/diagram-geometry.ts). The wheel zooms about the pointer, a drag pans, a double click zooms in;
// these and scaleBy keep the zoom between 1× and the deepest the run allows (setMaxScale, from
// layout/time-scale-layout.ts maxZoom) and the timeline filling the plot (translateExtent), while apply and
// panTo set the zoom they are given. Which events zoom and pan is decided here and nowhere else (d3-zoom's
// default filter: no secondary button, no Ctrl+click; the wheel is taken from the page).
//
// Every change of zoom, whoever made it, reaches onZoom: `external` says whether it was adopted with
// apply() (another diagram's zoom, through interaction/time-zoom-sync.ts), which the owner must not pass
// back on; the wheel, a drag, scaleBy() and panTo() are this diagram's own. Changes arrive synchronously.
import { select, zoom as d3zoom, zoomIdentity, type D3ZoomEvent, type ZoomBehavior } from 'd3';
import { IDENTITY_ZOOM, type TimeZoom } from '../layout/time-scale-layout.ts';

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
  ) {
    this.behavior = d3zoom<SVGSVGElement, unknown>()
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
    select(this.svg).on('.zoom', null);
  }
}
