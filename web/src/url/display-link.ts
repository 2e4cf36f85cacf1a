// The display keys of the URL: what a link must carry, beside the view's own keys, so that it opens not
// only the same settings but the same picture — and which hold whatever view is shown:
//   t=<µs>                the playhead (absent: no playback, every event drawn)
//   speed=<trace µs per wall µs>  one of PLAYBACK_SPEEDS (absent: the default)
//   zoom=<fromUs>-<toUs>  the visible time window, µs since t0 (on the shared time axis: the longest run shown)
//   theme=light|dark|auto the colour theme (absent: the reader's own choice, else the system's)
//   present=1             presenter mode
//   tour=<step>           the guided tour's step, 1-based (absent: closed)
//   repeat=<panel>:<repeat>,…  the repeat a panel shows when it is not the median (both 1-based)
//   wire=<panel>          the run the wire view lists, when not the first (1-based)
// A link writes them in that order, after the view's keys, so the same screen gives the same link. Parsing
// is tolerant (link-fields.ts, and state/link-values.ts for times and speeds): junk reads as absent.
import { z } from 'zod';
import { tourStepOf } from '../format/tour-steps.ts';
import { DEFAULT_PLAYBACK_SPEED } from '../interaction/playback-clock.ts';
import { formatTimeWindow, formatUsField, parseTimeWindow, readTime, snapSpeed, type TimeWindow } from '../state/link-values.ts';
import { parseThemeChoice, type ThemeChoice } from '../state/theme-choice.ts';
import { fieldsOf, hashParams } from './link-fields.ts';

/** Panels and repeats a link may name; more is junk. */
const MAX_INDEX = 1000;

export interface DisplayLink {
  /** The playhead, µs since t0; null: no playback. */
  t: number | null;
  /** Trace µs per wall-clock µs, one of PLAYBACK_SPEEDS; null: the default (DEFAULT_PLAYBACK_SPEED), named or not. */
  speed: number | null;
  /** null: not zoomed (the whole timeline). */
  zoom: TimeWindow | null;
  theme: ThemeChoice | null;
  present: boolean;
  /** The tour's step, 1-based; null: the tour is closed. */
  tour: number | null;
  /** Panel index (from 0) → repeat index (from 0) shown instead of the median. */
  repeats: ReadonlyMap<number, number>;
  /** The panel (from 0) whose run the wire view lists. */
  wire: number;
}

export const DEFAULT_DISPLAY_LINK: DisplayLink = { t: null, speed: null, zoom: null, theme: null, present: false, tour: null, repeats: new Map(), wire: 0 };

/** The display keys in the order a link writes them. */
export const DISPLAY_KEYS = ['t', 'speed', 'zoom', 'theme', 'present', 'tour', 'repeat', 'wire'] as const;

/** "2:3,1:2" → panel 1 shows repeat 2, panel 0 shows repeat 1 (0-based in the map); bad pairs are skipped. */
function readRepeats(text: string): Map<number, number> {
  const picks = new Map<number, number>();
  for (const pair of text.split(',')) {
    const match = /^\s*(\d{1,4})\s*[:.]\s*(\d{1,4})\s*$/.exec(pair);
    if (!match) continue;
    const panel = Number(match[1]);
    const repeat = Number(match[2]);
    if (panel >= 1 && repeat >= 1 && panel <= MAX_INDEX && repeat <= MAX_INDEX && !picks.has(panel - 1)) picks.set(panel - 1, repeat - 1);
  }
  return picks;
}

function readPanel(text: string): number {
  const match = /^\s*(\d{1,4})\s*$/.exec(text);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= MAX_INDEX ? n - 1 : 0;
}

const DisplayLinkSchema = z.object({
  t: z.string().transform(readTime).catch(null),
  speed: z.string().transform((text) => {
    const speed = snapSpeed(text);
    return speed === DEFAULT_PLAYBACK_SPEED ? null : speed;
  }).catch(null),
  zoom: z.string().transform(parseTimeWindow).catch(null),
  theme: z.string().transform(parseThemeChoice).catch(null),
  present: z.string().transform((text) => text === '1').catch(false),
  tour: z.string().transform(tourStepOf).catch(null),
  repeat: z.string().transform(readRepeats).catch(() => new Map()),
  wire: z.string().transform(readPanel).catch(0),
}).transform(({ repeat, ...rest }): DisplayLink => ({ ...rest, repeats: repeat }));

/** The display state from a link's fields (fieldsOf); never throws. */
export function parseDisplayLink(fields: Readonly<Record<string, string>>): DisplayLink {
  return DisplayLinkSchema.parse(fields);
}

/** The display keys of a hash, the rest of it ignored. */
export const displayLinkOfHash = (hash: string): DisplayLink => parseDisplayLink(fieldsOf(hashParams(hash), DISPLAY_KEYS));

/** The display keys in the order a link writes them; defaults are left out. */
export function displayLinkEntries(p: DisplayLink): [string, string][] {
  const picks = [...p.repeats].sort(([a], [b]) => a - b).map(([panel, repeat]) => `${panel + 1}:${repeat + 1}`);
  const entries: [string, string | null][] = [
    ['t', p.t === null ? null : formatUsField(p.t)],
    ['speed', p.speed === null || p.speed === DEFAULT_PLAYBACK_SPEED ? null : String(p.speed)],
    ['zoom', p.zoom && p.zoom.fromUs < p.zoom.toUs ? formatTimeWindow(p.zoom) : null],
    ['theme', p.theme],
    ['present', p.present ? '1' : null],
    ['tour', p.tour === null ? null : String(p.tour)],
    ['repeat', picks.length > 0 ? picks.join(',') : null],
    ['wire', p.wire > 0 ? String(p.wire + 1) : null],
  ];
  return entries.filter((e): e is [string, string] => e[1] !== null);
}

/** The display keys as a link writes them (key → text, in link order), e.g. for follow mode to send. */
export const displayKeysOf = (p: DisplayLink): Record<string, string> => Object.fromEntries(displayLinkEntries(p));

/** The display state with some keys set from their text (a value) or removed (null), as a link would read them. */
export function displayWithKeys(p: DisplayLink, keys: Readonly<Record<string, string | null>>): DisplayLink {
  const params = new URLSearchParams(displayLinkEntries(p));
  for (const [key, value] of Object.entries(keys)) {
    if (value === null) params.delete(key);
    else params.set(key, value);
  }
  return parseDisplayLink(fieldsOf(params, DISPLAY_KEYS));
}
