// After the user presses Run on a screen where the form pushes the results below the fold (a phone), the
// page brings the first run's diagram into view as soon as it is drawn, so the first Run shows what it
// measured without a scroll. Only for a Run pressed here (not the first visit's automatic run, not a
// follower's page), only when the diagram would start below the fold, and never against the user: a
// wheel, touch or key of the user's own after Run cancels it.
import { useCallback, useEffect, useRef } from 'react';

/** The first run panel's diagram (run-panel-view.tsx, sequence-diagram-view.tsx). */
const FIRST_DIAGRAM = '[data-testid=run-panel] svg.diagram-svg';
/** The run panel a diagram sits in, and the playback bar that sticks to the viewport's top over the panels. */
const PANEL = '[data-testid=run-panel]';
const STICKY_BAR = '[data-testid=playback-bar]';
/** Room kept between the sticky bar and what is revealed under it, CSS px. */
const GAP_PX = 8;
/** How much of the diagram must show above the fold for the page to leave it where it is, CSS px (a desktop
    first screen shows this much; a phone shows none). */
const SHOWN_ENOUGH_PX = 40;
/** How long after the runs change the page still waits for their first diagram to be drawn, ms. */
const DRAW_WAIT_MS = 5_000;
/** How long after Run its first run may arrive and still be revealed, ms (a long run over a slow link). */
const ARRIVAL_WAIT_MS = 120_000;
/** Frames the diagram must keep its place before the page scrolls to it. */
const SETTLED_FRAMES = 3;
/** Where the form stacks above the results (the phone layout's breakpoint): only there does Run reveal them. On a
    wider screen the first diagram starts on the first screen by layout, and a scroll while the verdict lines
    are still settling would only move the page under the user. */
const PHONE_LAYOUT = '(max-width: 640px)';
/** What the user does to the page that means "leave my scroll alone". */
const USER_SCROLL_EVENTS = ['wheel', 'touchmove', 'keydown'] as const;

/**
 * Returns a function to call as the user presses Run. Once the runs on screen change after that (`shown`,
 * the run store's traces: a new array each time a run arrives or the screen is cleared) and the first
 * diagram is drawn, the page scrolls it into view if it starts below the fold.
 */
export function useRevealResults(shown: readonly unknown[]): () => void {
  // The runs on screen when Run was pressed, while armed; null when not armed.
  const armedAt = useRef<readonly unknown[] | null>(null);
  const armedSince = useRef(0);
  const frame = useRef(0);
  const disarm = useCallback(() => {
    armedAt.current = null;
    cancelAnimationFrame(frame.current);
    for (const type of USER_SCROLL_EVENTS) window.removeEventListener(type, disarm, true);
  }, []);
  useEffect(() => disarm, [disarm]);
  useEffect(() => {
    if (armedAt.current === null || armedAt.current === shown || shown.length === 0) return;
    if (performance.now() - armedSince.current > ARRIVAL_WAIT_MS) return disarm();
    const since = performance.now();
    // The diagram's top in the page, px, and for how many frames in a row it has stayed there: the panel
    // settles (its notes, the phase bar) a few frames after it first appears.
    let [lastTop, stillFrames] = [Number.NaN, 0];
    const look = () => {
      const diagram = document.querySelector(FIRST_DIAGRAM);
      const top = diagram ? diagram.getBoundingClientRect().top + window.scrollY : Number.NaN;
      stillFrames = Math.abs(top - lastTop) < 1 ? stillFrames + 1 : 0;
      lastTop = top;
      if (!diagram || stillFrames < SETTLED_FRAMES) {
        if (performance.now() - since < DRAW_WAIT_MS) frame.current = requestAnimationFrame(look);
        else disarm();
        return;
      }
      disarm();
      revealDiagram(diagram);
    };
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(look);
  }, [shown, disarm]);
  return useCallback(() => {
    disarm();
    if (!(window.matchMedia?.(PHONE_LAYOUT).matches ?? false)) return;
    armedAt.current = shown;
    armedSince.current = performance.now();
    for (const type of USER_SCROLL_EVENTS) window.addEventListener(type, disarm, { capture: true, passive: true });
  }, [shown, disarm]);
}

/**
 * Scrolls so the first run panel's head (its mode, its time) sits just under the sticky playback bar, or,
 * where the panel's notes would then push the diagram below the fold, the diagram's top itself.
 */
function revealDiagram(diagram: Element): void {
  const fold = window.innerHeight - SHOWN_ENOUGH_PX;
  const diagramTop = diagram.getBoundingClientRect().top;
  if (diagramTop <= fold) return;
  const stuck = document.querySelector(STICKY_BAR)?.getBoundingClientRect().height ?? 0;
  const panelTop = diagram.closest(PANEL)?.getBoundingClientRect().top ?? diagramTop;
  const anchor = diagramTop - panelTop + stuck + GAP_PX <= fold ? panelTop : diagramTop;
  const reduced = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  window.scrollTo({ top: window.scrollY + anchor - stuck - GAP_PX, behavior: reduced ? 'auto' : 'smooth' });
}
