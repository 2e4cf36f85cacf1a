// The runs on screen as the user compares them. A request runs each mode K times, interleaved, so the
// traces on screen are grouped into one group per compared run — its repeats — and each panel shows one
// group: the median repeat's diagram by default, every figure as median [min–max] over the repeats.
// Grouped by runKey (trace/derive/repeat-stats.ts: the mode, and the chunk size when chunked); a trace joins a
// group only when it is the same workload measured the same way (command, N, value size, client, added
// delay, warm or cold, probes) and its repeat number is not in the group yet, so traces opened from
// unrelated files stay apart, as they did before repeats. Pure, unit-tested.
import { medianRepeat, runKey } from '../../../trace/derive/repeat-stats.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

export interface RunGroup {
  /** Stable across new repeats arriving: the runKey and the run id of the group's first trace seen. */
  key: string;
  /** In repeat order (run.repeat, from 0). */
  repeats: readonly TraceDocument[];
  /** The repeat whose totals.durationUs is the median (the lower middle one for an even count). */
  median: TraceDocument;
}

/** What must be equal for two traces to be repeats of one run. */
function fingerprint(doc: TraceDocument): string {
  const { run, rtt, recorder } = doc;
  const p = run.probes;
  return [
    runKey(doc), run.command, run.n, run.valueBytes, recorder.client, rtt.addedMs, rtt.jitterMs, run.warmup === null ? 'cold' : 'warm',
    p.monitor, p.strace, p.memory, p.kernelTcp,
    // v4: a run the screen holds only part of stands alone: it is no repeat to take a median with.
    doc.incomplete ? `incomplete:${run.id}` : 'whole',
  ].join('|');
}

/** The traces in groups of repeats, in the order each group was first seen. */
export function runGroups(docs: readonly TraceDocument[]): RunGroup[] {
  const groups: { key: string; fingerprint: string; repeats: TraceDocument[] }[] = [];
  for (const doc of docs) {
    const print = fingerprint(doc);
    const group = groups.find((g) => g.fingerprint === print && !g.repeats.some((r) => r.run.repeat === doc.run.repeat));
    if (group) group.repeats.push(doc);
    else groups.push({ key: `${runKey(doc)}:${doc.run.id}`, fingerprint: print, repeats: [doc] });
  }
  return groups.map(({ key, repeats }) => {
    const sorted = [...repeats].sort((a, b) => a.run.repeat - b.run.repeat);
    return { key, repeats: sorted, median: medianRepeat(sorted)! };
  });
}

/** The repeat a panel shows: the one the user picked (by run id), else the median one. */
export function shownRepeat(group: RunGroup, pickedRunId: string | undefined): TraceDocument {
  return (pickedRunId !== undefined && group.repeats.find((d) => d.run.id === pickedRunId)) || group.median;
}
