// Where loaded documents go: traces into the run store (side by side, in comparison order, the repeats
// of a run together), the first sweep into the sweep store, problems into the message line. Used for
// files the user opens and for ?trace= links, which main.tsx loads before the first render so that an
// embed draws at once, and for saved runs the History view shows again. `record` hears every trace
// loaded, drawn or not (the run history keeps them all).
import type { RunStore } from '../live/run-store.ts';
import type { SweepStore } from '../live/sweep-store.ts';
import type { TraceSource } from '../live/store-types.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { ViewChoice } from './page-choices.ts';
import { runGroups } from '../model/run-groups.ts';
import { modeLabel, runTitle } from '../format/run-label.ts';
import { MAX_RUNS_SHOWN } from '../../../trace/protocol/page-limits.ts';
import { comparisonOrder, type LoadResult } from './trace-files.ts';

/** Shows what was loaded; returns the view to switch to (traces: run, sweeps only: sweep), or null to stay. */
export function showLoaded(
  loaded: LoadResult,
  source: Exclude<TraceSource, 'live'>,
  runs: RunStore,
  sweepStore: SweepStore,
  record?: (docs: readonly TraceDocument[], origins: readonly string[]) => void,
): ViewChoice | null {
  const { docs, origins, sweeps, errors } = loaded;
  // Repeats of one run are one panel: at most MAX_RUNS_SHOWN runs, with all their repeats.
  const groups = runGroups(comparisonOrder(loaded));
  if (docs.length) runs.showTraces(groups.slice(0, MAX_RUNS_SHOWN).flatMap((g) => g.repeats), source, loaded.storedIds);
  if (docs.length) record?.(docs, origins);
  if (sweeps[0]) sweepStore.show(sweeps[0], source);
  const extra = [
    ...(groups.length > MAX_RUNS_SHOWN ? [notShownText(groups.slice(MAX_RUNS_SHOWN).map((g) => g.median.run), groups.length)] : []),
    ...(sweeps.length > 1 ? [`Showing the first of ${sweeps.length} sweep files.`] : []),
  ];
  runs.setMessage(errors.length ? { kind: 'error', text: [...errors, ...extra].join(' ') } : extra.length ? { kind: 'info', text: extra.join(' ') } : null);
  if (docs.length === 0 && sweeps.length > 0) return 'sweep';
  if (sweeps.length === 0 && docs.length > 0) return 'run';
  return null;
}

/** "Showing the first 6 of 8 runs (at most 6 compare side by side); not drawn: EVAL · 10 × INCR, …". */
export function notShownText(runs: readonly Parameters<typeof runTitle>[0][], total: number): string {
  const names = runs.map((r) => `${modeLabel(r.mode, r.chunk)} · ${runTitle(r)}`).join('; ');
  return `Showing the first ${MAX_RUNS_SHOWN} of ${total} runs (at most ${MAX_RUNS_SHOWN} compare side by side); not drawn: ${names}. Open those on their own to see them.`;
}
