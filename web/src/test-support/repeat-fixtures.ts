// Repeats of a test run: the same fixture trace as repeat k of its request, with its own run id and,
// when given, its own total time (the last reply moved, so that medians and ranges can be told apart).
// For unit tests only; nothing here is shown to users.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

/** doc as repeat `repeat` (id `<id>-r<repeat>`), its totals scaled to durationUs when given. */
export function asRepeat(doc: TraceDocument, repeat: number, durationUs?: number): TraceDocument {
  const totals =
    durationUs === undefined ? doc.totals
    : { durationUs, opsPerSec: (doc.run.n * 1e6) / durationUs, doneUs: durationUs + (doc.totals.doneUs - doc.totals.durationUs) };
  return { ...doc, run: { ...doc.run, id: `${doc.run.id}-r${repeat}`, repeat }, totals };
}

/** One repeat per total time given, in that order: repeats(seq, [300, 100, 200]) → repeats 0, 1, 2. */
export function repeatsOf(doc: TraceDocument, durationsUs: readonly number[]): TraceDocument[] {
  return durationsUs.map((us, k) => asRepeat(doc, k, us));
}
