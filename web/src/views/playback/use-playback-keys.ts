// The page's one document-level keydown listener for the media-player keys (interaction/playback-keys.ts
// says which key does what and which presses are not ours), plus the reduced-motion preference, which
// turns playing into discrete steps. Bubbling phase: a control that handles a key itself (the diagram's
// ↑/↓, the guided tour's PageUp/PageDown in the capture phase) marks it defaultPrevented first.
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { PlaybackClock } from '../../interaction/playback-clock.ts';
import { applyClockAction, keyAction, type PlaybackAction } from '../../interaction/playback-keys.ts';

interface Options {
  /** `?`: open the keyboard help. */
  onHelp: () => void;
  /** `f`: the element to show full screen (else the whole page). */
  fullscreenTarget: () => HTMLElement | null;
}

export function usePlaybackKeys(clock: PlaybackClock, options: Options): void {
  const optionsRef = useRef(options);
  useLayoutEffect(() => {
    optionsRef.current = options;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const action = keyAction(event);
      if (action === null) return;
      event.preventDefault(); // Space, Home, End and PageUp/PageDown would scroll the page too
      run(action, clock, optionsRef.current);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [clock]);
}

function run(action: PlaybackAction, clock: PlaybackClock, options: Options): void {
  if (applyClockAction(clock, action)) return;
  if (action === 'fullscreen') toggleFullscreen(options.fullscreenTarget() ?? document.documentElement);
  else if (action === 'help') options.onHelp();
}

/** The Fullscreen API where there is one (and it is allowed); nothing otherwise. */
function toggleFullscreen(element: HTMLElement): void {
  if (!document.fullscreenEnabled) return;
  const done = document.fullscreenElement ? document.exitFullscreen() : element.requestFullscreen();
  void done?.catch(() => {});
}

/** Playing moves in discrete steps while the user prefers reduced motion (and follows a change of it). */
export function useReducedMotion(clock: PlaybackClock): void {
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia('(prefers-reduced-motion: reduce)');
    const apply = () => clock.setDiscrete(query.matches);
    apply();
    query.addEventListener?.('change', apply);
    return () => query.removeEventListener?.('change', apply);
  }, [clock]);
}
