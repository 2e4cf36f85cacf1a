// Keeps every diagram on the same zoom and pan: a wheel or drag in one diagram moves the others,
// and the reset button puts them all back. The zoom is y-only (time), in plot px (see
// diagram-geometry.ts); with a shared time scale the diagrams therefore show the same µs window.
import { IDENTITY_ZOOM, type TimeZoom } from '../layout/time-scale-layout.ts';

export interface ZoomMember {
  /** Adopt a zoom another member (or reset) chose; must not call back into set(). */
  applyZoom(zoom: TimeZoom): void;
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

  reset(): void {
    this.set(IDENTITY_ZOOM);
  }
}
