// The media-player keys of the page, as data: which key does what to playback, and which key presses
// are not ours (typing in a field, a control with keys of its own, a shortcut with Ctrl/Meta/Alt). The
// one document-level listener (views/playback/use-playback-keys.ts) asks keyAction and runs the action; the
// help overlay lists PLAYBACK_KEYS. The diagram's own keys (↑/↓ marks, [ ] zoom, 0) are
// diagram-keys.ts's and are listed here for the help only. applyClockAction does an action to a
// playback clock, for the page's listener and the <pipescope-player> element alike.
import type { PlaybackClock } from './playback-clock.ts';

export type PlaybackAction =
  | 'toggle' | 'next' | 'previous' | 'frame-forward' | 'frame-back' | 'home' | 'end' | 'faster' | 'slower' | 'fullscreen' | 'help';

/** KeyboardEvent.key → action. Space arrives as ' '; '+' needs Shift on most layouts, so '=' counts too. */
const ACTIONS: Readonly<Record<string, PlaybackAction>> = {
  ' ': 'toggle',
  ArrowRight: 'next',
  ArrowLeft: 'previous',
  PageDown: 'next',
  PageUp: 'previous',
  '.': 'frame-forward',
  ',': 'frame-back',
  Home: 'home',
  End: 'end',
  '+': 'faster',
  '=': 'faster',
  '-': 'slower',
  f: 'fullscreen',
  F: 'fullscreen',
  '?': 'help',
};

/** What a key press's target is, as far as the key rules care. */
export interface KeyTarget {
  tagName?: string;
  isContentEditable?: boolean;
  closest?: (selector: string) => unknown;
}

/** The parts of a KeyboardEvent the rules read. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  defaultPrevented: boolean;
  target: KeyTarget | null | EventTarget;
}

const TEXT_TAGS = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/**
 * The playback action of a key press, or null when the press is not ours: a modifier other than Shift
 * (browser and OS shortcuts), already handled (defaultPrevented), typed into a field (input, select,
 * textarea, contenteditable), inside an element with keys of its own ([data-own-keys]), or Space/Enter
 * on a button (which they press).
 */
export function keyAction(press: KeyPress): PlaybackAction | null {
  if (press.ctrlKey || press.metaKey || press.altKey || press.defaultPrevented) return null;
  const action = ACTIONS[press.key];
  if (!action) return null;
  const target = (press.target ?? {}) as KeyTarget;
  const tag = target.tagName?.toUpperCase() ?? '';
  if (TEXT_TAGS.has(tag) || target.isContentEditable) return null;
  if (typeof target.closest === 'function' && target.closest('[data-own-keys]')) return null;
  if (press.key === ' ' && (tag === 'BUTTON' || (typeof target.closest === 'function' && target.closest('button, [role=button], a[href], summary')))) return null;
  return action;
}

/** Does a playback action to the clock; false for the actions that are not the clock's (full screen, help). */
export function applyClockAction(clock: PlaybackClock, action: PlaybackAction): boolean {
  switch (action) {
    case 'toggle': clock.toggle(); return true;
    case 'next': clock.stepForward(); return true;
    case 'previous': clock.stepBack(); return true;
    case 'frame-forward': clock.frame(1); return true;
    case 'frame-back': clock.frame(-1); return true;
    case 'home': clock.home(); return true;
    case 'end': clock.end(); return true;
    case 'faster': clock.faster(); return true;
    case 'slower': clock.slower(); return true;
    case 'fullscreen':
    case 'help':
      return false;
  }
}

/** For the help overlay: every key of the page, playback's and the diagram's, in the order shown. */
export const PLAYBACK_KEYS: readonly { keys: readonly string[]; what: string }[] = [
  { keys: ['Space'], what: 'Play or pause' },
  { keys: ['←', '→'], what: 'Previous / next event (a write, a read, an execution on Redis)' },
  { keys: ['PageUp', 'PageDown'], what: 'Previous / next event — or tour step while the guided tour runs (presentation clickers)' },
  { keys: [',', '.'], what: 'One frame back / forward (1/200 of the run)' },
  { keys: ['Home', 'End'], what: 'To the start / the end' },
  { keys: ['+', '−'], what: 'Faster / slower (real time down to 1/1000)' },
  { keys: ['f'], what: 'Full screen on or off' },
  { keys: ['?'], what: 'This help' },
  { keys: ['↑', '↓'], what: 'On a focused diagram: previous / next mark, with its details (Shift: ×10)' },
  { keys: ['Esc'], what: 'On a focused diagram: close the details' },
  { keys: ['[', ']'], what: 'On a focused diagram: zoom out / in' },
  { keys: ['0'], what: 'On a focused diagram: reset the zoom' },
];
