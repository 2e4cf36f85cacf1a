// The display state in the URL hash, beside the view's own keys (hash-fields.ts): what a link must carry
// so that it opens not only the same settings but the same picture —
//   zoom=<fromUs>-<toUs>  the visible time window, µs since t0 (on the shared time axis: the longest run shown)
//   t=<µs>                the playhead (absent: no playback, every event drawn)
//   speed=<trace µs per wall µs>  one of PLAYBACK_SPEEDS (absent: the default)
//   repeat=<panel>:<repeat>,…     the repeat a panel shows when it is not the median (both 1-based)
//   wire=<panel>                  the run the wire view lists, when not the first (1-based)
// Parsing is tolerant, as people type links by hand: junk, negatives, reversed or empty windows, NaN and
// absurdly large numbers read as absent, and nothing ever throws. Numbers are written with at most three
// decimals (ns), so format(parse(x)) is stable.
import { DEFAULT_PLAYBACK_SPEED, nearestSpeed } from '../interaction/playback-clock.ts';
import { MAX_DISPLAY_US } from '../../../trace/protocol/page-limits.ts';
import { hashField } from './hash-fields.ts';

/** Panels and repeats a link may name; more is junk. */
const MAX_INDEX = 1000;

/** A visible time window, µs since t0; fromUs < toUs. */
export interface TimeWindow {
  fromUs: number;
  toUs: number;
}

export interface DisplayHashParams {
  /** null: not zoomed (the whole timeline). */
  zoom: TimeWindow | null;
  /** The playhead, µs since t0; null: no playback. */
  t: number | null;
  /** Trace µs per wall-clock µs, one of PLAYBACK_SPEEDS. */
  speed: number;
  /** Panel index (from 0) → repeat index (from 0) shown instead of the median. */
  repeats: ReadonlyMap<number, number>;
  /** The panel (from 0) whose run the wire view lists. */
  wire: number;
}

export const DEFAULT_DISPLAY_PARAMS: DisplayHashParams = { zoom: null, t: null, speed: DEFAULT_PLAYBACK_SPEED, repeats: new Map(), wire: 0 };

const DECIMAL = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const TIME = new RegExp(`^\\s*${DECIMAL}\\s*$`);
const WINDOW = new RegExp(`^\\s*${DECIMAL}\\s*(?:-|–|\\.\\.|,|_)\\s*${DECIMAL}\\s*$`);
const FRACTION = new RegExp(`^\\s*${DECIMAL}\\s*/\\s*${DECIMAL}\\s*$`);

/** Rounds to ns (three decimals), the precision links carry. */
const roundUs = (us: number) => Math.round(us * 1000) / 1000;

/** A non-negative decimal within MAX_DISPLAY_US, rounded to ns; else null. (The embed's `t=` reads with it too.) */
export function readTime(text: string | null): number | null {
  const match = text === null ? null : TIME.exec(text);
  if (!match) return null;
  const us = Number(match[1]);
  return Number.isFinite(us) && us <= MAX_DISPLAY_US ? roundUs(us) : null;
}

export function parseTimeWindow(text: string | null): TimeWindow | null {
  const match = text === null ? null : WINDOW.exec(text);
  if (!match) return null;
  const fromUs = roundUs(Number(match[1]));
  const toUs = roundUs(Number(match[2]));
  if (!Number.isFinite(fromUs) || !Number.isFinite(toUs) || toUs > MAX_DISPLAY_US) return null;
  return fromUs < toUs ? { fromUs, toUs } : null;
}

/** The playback speed nearest (on a log scale) to the value, for 0.0001…10; else null. "1/500" reads too. */
export function snapSpeed(text: string | null): number | null {
  if (text === null) return null;
  const fraction = FRACTION.exec(text);
  const plain = TIME.exec(text);
  const value = fraction ? Number(fraction[1]) / Number(fraction[2]) : plain ? Number(plain[1]) : NaN;
  if (!Number.isFinite(value) || value < 0.0001 || value > 10) return null;
  return nearestSpeed(value);
}

/** "2:3,1:2" → panel 1 shows repeat 2, panel 0 shows repeat 1 (0-based in the map); bad pairs are skipped. */
function readRepeats(text: string | null): Map<number, number> {
  const picks = new Map<number, number>();
  for (const pair of (text ?? '').split(',')) {
    const match = /^\s*(\d{1,4})\s*[:.]\s*(\d{1,4})\s*$/.exec(pair);
    if (!match) continue;
    const panel = Number(match[1]);
    const repeat = Number(match[2]);
    if (panel >= 1 && repeat >= 1 && panel <= MAX_INDEX && repeat <= MAX_INDEX && !picks.has(panel - 1)) picks.set(panel - 1, repeat - 1);
  }
  return picks;
}

function readPanel(text: string | null): number {
  const match = text === null ? null : /^\s*(\d{1,4})\s*$/.exec(text);
  const n = match ? Number(match[1]) : 0;
  return n >= 1 && n <= MAX_INDEX ? n - 1 : 0;
}

export function parseDisplayHashParams(hash: string): DisplayHashParams {
  const at = (key: string) => hashField(hash, key);
  return {
    zoom: parseTimeWindow(at('zoom')),
    t: readTime(at('t')),
    speed: snapSpeed(at('speed')) ?? DEFAULT_DISPLAY_PARAMS.speed,
    repeats: readRepeats(at('repeat')),
    wire: readPanel(at('wire')),
  };
}

/** A µs figure as a link writes it: at most three decimals, no trailing zeros. */
export function formatUsField(us: number): string {
  return String(roundUs(Math.max(0, us)));
}

export function formatTimeWindow(window: TimeWindow): string {
  return `${formatUsField(window.fromUs)}-${formatUsField(window.toUs)}`;
}

/** The keys for writeHashFields: a value, or null to remove the key (a default is not written). */
export function displayHashFields(p: DisplayHashParams): Record<'zoom' | 't' | 'speed' | 'repeat' | 'wire', string | null> {
  const picks = [...p.repeats].sort(([a], [b]) => a - b).map(([panel, repeat]) => `${panel + 1}:${repeat + 1}`);
  return {
    zoom: p.zoom && p.zoom.fromUs < p.zoom.toUs ? formatTimeWindow(p.zoom) : null,
    t: p.t === null ? null : formatUsField(p.t),
    speed: p.speed === DEFAULT_DISPLAY_PARAMS.speed ? null : String(p.speed),
    repeat: picks.length > 0 ? picks.join(',') : null,
    wire: p.wire > 0 ? String(p.wire + 1) : null,
  };
}

/** The display keys alone, as a hash ('' when all are defaults): the round-trip form of the parser. */
export function formatDisplayHashParams(p: DisplayHashParams): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(displayHashFields(p))) if (value !== null) params.set(key, value);
  const text = params.toString();
  return text ? `#${text}` : '';
}
