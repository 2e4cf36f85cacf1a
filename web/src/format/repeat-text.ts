// Words for a run's repeats: the picker's options ("repeat 3 of 5 · 1.19 ms · median") and the note
// that says what the summary's ranges are over ("median [min–max] of 5 repeats, interleaved with the
// other modes"). Repeats are counted from 1 on screen (run.repeat counts from 0). Pure, unit-tested.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { RunGroup } from '../model/run-groups.ts';
import { formatUs } from './number-format.ts';

/** "repeat 3 of 5 · 1.19 ms · median": the i-th of the group's repeats (in repeat order). */
export function repeatOptionText(doc: TraceDocument, i: number, group: RunGroup): string {
  const median = doc === group.median ? ' · median' : '';
  return `repeat ${i + 1} of ${group.repeats.length} · ${formatUs(doc.totals.durationUs)}${median}`;
}

/** What the summary's figures are over: "median [min–max] of 5 repeats", or null for a single run. */
export function repeatsNote(group: RunGroup): string | null {
  const k = group.repeats.length;
  if (k < 2) return null;
  const even = k % 2 === 0 ? ' (an even count: the median is the mean of the middle two; the diagram shows the lower one)' : '';
  return `Figures: median [min–max] of ${k} repeats, run interleaved with the other modes${even}.`;
}
