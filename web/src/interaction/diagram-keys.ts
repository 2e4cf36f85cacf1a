// A focused diagram's own keys, as data: the keyboard cursor walks every mark in time order
// (model/diagram-marks.ts): ↑/↓ (Shift ×10), C/E/S/O for the next command / Redis execution / syscall /
// other client's command (Shift: the previous), Esc leaves the marks; ] and [ zoom in and out, 0 resets.
// ←/→, Home/End and +/- are left to the page's playback keys (playback-keys.ts), and a key with Ctrl, ⌘ or
// Alt to the browser. diagramKeyAction says what a key press does; paint/diagram-controller.ts does it.
// Pure: no DOM.
import { stepMark, type MarkKind, type MarkRef } from '../model/diagram-marks.ts';
import type { TraceColumns } from '../model/trace-columns.ts';

/** What the diagram's keys do, for its aria-label (screen readers). */
export const DIAGRAM_KEYS_TEXT =
  '↑ and ↓ step through every mark in time order (Shift: 10 at a time); C, E, S, O jump to the next command, Redis execution, syscall or other client’s command (Shift: the previous); ] and [ zoom in and out, 0 resets; Esc leaves the marks.';

/** The same, short, for the keyboard cursor's tooltip (sighted users). */
export const KEYBOARD_HINT = '↑ ↓ next mark · Shift ×10 · C E S O: command, execution, syscall, other client (Shift: back) · ] [ 0: zoom · Esc';

/** The keys that jump to the next mark of one kind (with Shift: the previous one). */
const KIND_KEYS: Readonly<Record<string, MarkKind>> = { c: 'command', e: 'execution', s: 'syscall', o: 'other' };

/** How many marks ↑/↓ step with Shift held. */
const SHIFT_STEP = 10;

/** The parts of a KeyboardEvent the diagram's keys read. */
export interface DiagramKeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

/** What a key press does to a diagram. */
export type DiagramKeyAction =
  /** Put the keyboard cursor on `mark` (null: leave the marks), revealing it if it is out of view. */
  | { kind: 'cursor'; mark: MarkRef | null }
  /** Zoom by `factor` (2: in, 0.5: out) about the plot's centre. */
  | { kind: 'zoom-by'; factor: number }
  /** Back to the whole timeline, in every diagram. */
  | { kind: 'zoom-reset' };

/**
 * What `press` does to a diagram whose keyboard cursor is on `cursor` (null: on no mark; the pointer's
 * hover is not a cursor), or null when the key is not the diagram's (the page or the browser keeps it).
 * A key of a kind the run has none of (S without strace) is still the diagram's: the cursor stays.
 */
/** How much one zoom key (] or [) or zoom button zooms in or out. */
export const ZOOM_STEP = 2;

export function diagramKeyAction(press: DiagramKeyPress, columns: TraceColumns, cursor: MarkRef | null): DiagramKeyAction | null {
  // Modified keys belong to the browser and the page.
  if (press.ctrlKey || press.metaKey || press.altKey) return null;
  switch (press.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      const steps = (press.key === 'ArrowDown' ? 1 : -1) * (press.shiftKey ? SHIFT_STEP : 1);
      // From no mark, ↑ lands on the first mark too (not the last): the cursor starts at the top.
      return { kind: 'cursor', mark: cursor === null && steps < 0 ? stepMark(columns, null, 1) : stepMark(columns, cursor, steps) };
    }
    case 'Escape':
      // Nothing to leave: Esc is the page's.
      return cursor === null ? null : { kind: 'cursor', mark: null };
    case ']':
      return { kind: 'zoom-by', factor: ZOOM_STEP };
    case '[':
      return { kind: 'zoom-by', factor: 1 / ZOOM_STEP };
    case '0':
      return { kind: 'zoom-reset' };
  }
  const only = KIND_KEYS[press.key.toLowerCase()];
  if (only === undefined) return null;
  const next = stepMark(columns, cursor, press.shiftKey ? -1 : 1, only);
  // No mark of that kind (stepMark stays on another kind's mark): the cursor stays.
  return { kind: 'cursor', mark: next !== null && next.kind !== only ? cursor : next };
}
