// Which repeat each panel shows and which run the wire view lists, to and from the URL's repeat= and
// wire= keys (display-hash-params.ts). The link names panels and repeats by position, which is what a
// link to the same ?trace= files reproduces; the page holds them by group key and run id
// (model/run-groups.ts). Pure, unit-tested.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { RunGroup } from '../model/run-groups.ts';
import { displayHashFields, parseDisplayHashParams, DEFAULT_DISPLAY_PARAMS } from './display-hash-params.ts';

/** Group key → run id, as results-view.tsx holds the repeats picked; positions the groups lack are dropped. */
export function picksOfHash(hash: string, groups: readonly RunGroup[]): Record<string, string> {
  const picks: Record<string, string> = {};
  for (const [panel, repeat] of parseDisplayHashParams(hash).repeats) {
    const group = groups[panel];
    const doc = group?.repeats[repeat];
    if (group && doc) picks[group.key] = doc.run.id;
  }
  return picks;
}

/** The run id the wire view lists, or null for the first panel's. */
export function wireRunOfHash(hash: string, shown: readonly TraceDocument[]): string | null {
  return shown[parseDisplayHashParams(hash).wire]?.run.id ?? null;
}

/** repeat= (the panels not showing their median) and wire= (unless the first panel) for writeHashFields. */
export function picksHashFields(groups: readonly RunGroup[], shown: readonly TraceDocument[], wireRunId: string | null): { repeat: string | null; wire: string | null } {
  const repeats = new Map<number, number>();
  groups.forEach((group, panel) => {
    const doc = shown[panel];
    if (doc && doc !== group.median) repeats.set(panel, group.repeats.indexOf(doc));
  });
  const wire = Math.max(0, shown.findIndex((d) => d.run.id === wireRunId));
  const { repeat, wire: wireField } = displayHashFields({ ...DEFAULT_DISPLAY_PARAMS, repeats, wire });
  return { repeat, wire: wireField };
}
