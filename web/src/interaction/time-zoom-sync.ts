// Keeps every diagram on the same zoom and pan: a Ctrl + wheel, pinch or drag in one diagram moves the
// others, the zoom buttons zoom them all about their centre, and the reset button puts them all back. The zoom is y-only (time), in plot px (see
// diagram-geometry.ts); with a shared time scale the diagrams therefore show the same µs window.
import { IDENTITY_ZOOM, type TimeZoom } from '../layout/time-scale-layout.ts';

export interface ZoomMember {
  /** Adopt a zoom another member (or reset) chose; must not call back into set(). */
  applyZoom(zoom: TimeZoom): void;
  /** A diagram that takes input: zoom by `factor` about its plot's centre, within its bounds, as its own change (which it set()s). */
  scaleBy?(factor: number): void;
}

export class TimeZoomSync {
  private current: TimeZoom = IDENTITY_ZOOM;
  private readonly members = new Set<ZoomMember>();

  get zoom(): TimeZoom {
    return this.current;
  }

  join(member: ZoomMember): void {
    this.members.add(member);
    member.applyZoom(this.current);
  }

  leave(member: ZoomMember): void {
    this.members.delete(member);
  }

  set(zoom: TimeZoom, from: ZoomMember | null = null): void {
    this.current = zoom;
    for (const member of this.members) if (member !== from) member.applyZoom(zoom);
  }

  /** Zooms every member by `factor` about the plot's centre (the zoom buttons); one diagram does it, within its bounds, and the rest follow. */
  zoomBy(factor: number): void {
    for (const member of this.members) {
      if (member.scaleBy) {
        member.scaleBy(factor);
        return;
      }
    }
  }

  reset(): void {
    this.set(IDENTITY_ZOOM);
  }
}
