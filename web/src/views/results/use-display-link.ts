// The diagrams' shared zoom and playhead, and their keys in the page's link (zoom=, t=, speed=), made once
// per page: url/display-link-sync.ts keeps them in step, both ways, from the time this page's effects run.
import { useEffect, useMemo } from 'react';
import { PlaybackClock } from '../../interaction/playback-clock.ts';
import { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { DisplayLinkSync } from '../../url/display-link-sync.ts';
import type { PageUrl } from '../../url/page-url.ts';

export interface DisplayLink {
  zoomSync: TimeZoomSync;
  /** The one playhead of the diagrams on screen (playback bar, keys, the link's t=, follow mode). */
  playback: PlaybackClock;
  displayLink: DisplayLinkSync;
}

export function useDisplayLink(url: PageUrl): DisplayLink {
  const zoomSync = useMemo(() => new TimeZoomSync(), []);
  const playback = useMemo(() => new PlaybackClock(), []);
  const displayLink = useMemo(() => new DisplayLinkSync(url, zoomSync, playback), [url, zoomSync, playback]);
  useEffect(() => displayLink.start(), [displayLink]);
  return { zoomSync, playback, displayLink };
}
