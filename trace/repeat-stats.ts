// Repeats of one run: a request runs each mode K times, interleaved, and every figure is shown as
// median [min–max] over them. The diagram shows the median repeat; a comparison between two modes
// is "within noise" when their ranges overlap, since then noise alone could flip the verdict.
import type { TraceDocument } from './trace-format.ts';
import { spreadOf, type Spread } from './sweep-format.ts';

/** The repeat whose totals.durationUs is the median (the lower middle one for an even count). */
export function medianRepeat(repeats: readonly TraceDocument[]): TraceDocument | undefined {
  const sorted = [...repeats].sort((a, b) => a.totals.durationUs - b.totals.durationUs || a.run.repeat - b.run.repeat);
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

/** Median [min–max] of a figure over the repeats. */
export function spreadOver(repeats: readonly TraceDocument[], figure: (doc: TraceDocument) => number): Spread {
  return spreadOf(repeats.map(figure));
}

/** True when two ranges share any value: then noise could put either run ahead. */
export function rangesOverlap(a: Spread, b: Spread): boolean {
  return a.min <= b.max && b.min <= a.max;
}

/** The key that tells one compared run from another: its mode and, when chunked, its chunk size. */
export function runKey(doc: TraceDocument): string {
  return doc.run.mode === 'chunked' ? `chunked:${doc.run.chunk}` : doc.run.mode;
}

/** Traces grouped by runKey, in first-seen order, each group in repeat order. */
export function groupRepeats(docs: readonly TraceDocument[]): TraceDocument[][] {
  const groups = new Map<string, TraceDocument[]>();
  for (const doc of docs) {
    const key = runKey(doc);
    const group = groups.get(key) ?? [];
    if (group.length === 0) groups.set(key, group);
    group.push(doc);
  }
  return [...groups.values()].map((group) => group.sort((a, b) => a.run.repeat - b.run.repeat));
}
