// Repeats of one run: a request runs each mode once per round, and every figure is shown as
// median [min–max] over the repeats. The diagram shows the median repeat. A comparison between two
// modes is not read off these ranges: it pairs the runs by round (run-pairs.ts, paired-verdict.ts).
// rangesOverlap is the rule before that, kept so the bench can show what it would have said.
import type { TraceDocument } from '../format/trace-format.ts';
import { spreadOf, type Spread } from '../format/sweep-format.ts';

/** The repeat whose totals.durationUs is the median (the lower middle one for an even count). */
export function medianRepeat(repeats: readonly TraceDocument[]): TraceDocument | undefined {
  const sorted = [...repeats].sort((a, b) => a.totals.durationUs - b.totals.durationUs || a.run.repeat - b.run.repeat);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Median [min–max] of a figure over the repeats. */
export function spreadOver(repeats: readonly TraceDocument[], figure: (doc: TraceDocument) => number): Spread {
  return spreadOf(repeats.map(figure));
}

/** True when two ranges share any value (the old verdict's "within noise"; the bench reports it beside the new one). */
export function rangesOverlap(a: Spread, b: Spread): boolean {
  return a.min <= b.max && b.min <= a.max;
}

/**
 * The key that tells one compared run from another: its mode and, when chunked, its chunk size; on a
 * cluster, keys under one hash tag and a serial split too (the defaults add nothing, so a trace recorded
 * before those fields keys as it did).
 */
export function runKey(doc: TraceDocument): string {
  const mode = doc.run.mode === 'chunked' ? `chunked:${doc.run.chunk}` : doc.run.mode;
  const keys = doc.cluster?.keys === 'hashtag' ? ':hashtag' : '';
  const split = doc.cluster?.split === 'serial' ? ':serial' : '';
  return `${mode}${keys}${split}`;
}
