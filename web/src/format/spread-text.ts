// How a figure measured over several repeats reads: its median, then [min–max] — "1.19 ms [1.10–1.42 ms]".
// The unit is written once when both ends share it. One repeat, or repeats that all read the same, show
// the figure alone: a range of one value says nothing. Pure, unit-tested.
import type { Spread } from '../../../trace/format/sweep-format.ts';

export interface SpreadText {
  median: string;
  /** "[1.1–1.4 ms]", or null when there is no range to show. */
  range: string | null;
}

/** "1.1 ms" → ["1.1", " ms"]; "10" → ["10", ""]: the trailing unit, when the last word has no digit. */
function splitUnit(text: string): [string, string] {
  const space = text.lastIndexOf(' ');
  if (space < 0 || /\d/.test(text.slice(space + 1))) return [text, ''];
  return [text.slice(0, space), text.slice(space)];
}

/** "[1.1–1.4 ms]", "[845 µs–1.04 ms]", "[10–12]". */
export function rangeText(minText: string, maxText: string): string {
  const [minNumber, minUnit] = splitUnit(minText);
  const [, maxUnit] = splitUnit(maxText);
  return `[${minUnit === maxUnit ? minNumber : minText}–${maxText}]`;
}

export function spreadText(spread: Spread, show: (value: number) => string): SpreadText {
  const min = show(spread.min);
  const max = show(spread.max);
  return { median: show(spread.median), range: min === max ? null : rangeText(min, max) };
}

/** The figure in one line: "1.19 ms [1.1–1.4 ms]", or "1.19 ms" alone. */
export function spreadLine(spread: Spread, show: (value: number) => string): string {
  const text = spreadText(spread, show);
  return text.range ? `${text.median} ${text.range}` : text.median;
}
