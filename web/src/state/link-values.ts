// The values links carry, read and written as text: a time (µs since t0), a time window, a playback speed.
// Shared by the page's URL (url/display-link.ts: zoom=, t=, speed=) and the embed's and the player's
// parameters (embed-params.ts, player/player-element.ts), so a link and an embed read a value alike.
// Tolerant, as people type links by hand: junk, negatives, reversed or empty windows, NaN and absurdly
// large numbers read as null, and nothing ever throws. Times are written with at most three decimals
// (ns), so write(read(x)) is stable.
import { nearestSpeed } from '../interaction/playback-clock.ts';
import { MAX_DISPLAY_US } from '../../../trace/protocol/page-limits.ts';

/** A visible time window, µs since t0; fromUs < toUs. */
export interface TimeWindow {
  fromUs: number;
  toUs: number;
}

const DECIMAL = '(\\d+(?:\\.\\d+)?|\\.\\d+)';
const TIME = new RegExp(`^\\s*${DECIMAL}\\s*$`);
const WINDOW = new RegExp(`^\\s*${DECIMAL}\\s*(?:-|–|\\.\\.|,|_)\\s*${DECIMAL}\\s*$`);
const FRACTION = new RegExp(`^\\s*${DECIMAL}\\s*/\\s*${DECIMAL}\\s*$`);

/** Rounds to ns (three decimals), the precision links carry. */
const roundUs = (us: number) => Math.round(us * 1000) / 1000;

/** A non-negative decimal within MAX_DISPLAY_US, rounded to ns; else null. */
export function readTime(text: string | null): number | null {
  const match = text === null ? null : TIME.exec(text);
  if (!match) return null;
  const us = Number(match[1]);
  return Number.isFinite(us) && us <= MAX_DISPLAY_US ? roundUs(us) : null;
}

/** "120-480" (or –, .., comma, _ between): a window within MAX_DISPLAY_US, rounded to ns; else null. */
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

/** A µs figure as a link writes it: at most three decimals, no trailing zeros. */
export function formatUsField(us: number): string {
  return String(roundUs(Math.max(0, us)));
}

export function formatTimeWindow(window: TimeWindow): string {
  return `${formatUsField(window.fromUs)}-${formatUsField(window.toUs)}`;
}
