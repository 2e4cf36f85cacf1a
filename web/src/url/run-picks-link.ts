// Which repeat each panel shows and which run the wire view lists, to and from the link's repeat= and
// wire= keys (display-link.ts). The link names panels and repeats by position, which is what a link to
// the same ?trace= files reproduces; the page holds them by group key and run id (model/run-groups.ts).
// Pure, unit-tested.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { RunGroup } from '../model/run-groups.ts';
import type { DisplayLink } from './display-link.ts';

/** Group key → run id, as results-view.tsx holds the repeats picked; positions the groups lack are dropped. */
export function picksOfLink({ repeats }: Pick<DisplayLink, 'repeats'>, groups: readonly RunGroup[]): Record<string, string> {
  const picks: Record<string, string> = {};
  for (const [panel, repeat] of repeats) {
    const group = groups[panel];
    const doc = group?.repeats[repeat];
    if (group && doc) picks[group.key] = doc.run.id;
  }
  return picks;
}

/** The run id the wire view lists, or null for the first panel's. */
export function wireRunOfLink({ wire }: Pick<DisplayLink, 'wire'>, shown: readonly TraceDocument[]): string | null {
  return shown[wire]?.run.id ?? null;
}

/** The panels not showing their median, and the wire view's panel, for the link. */
export function picksLinkFields(groups: readonly RunGroup[], shown: readonly TraceDocument[], wireRunId: string | null): Pick<DisplayLink, 'repeats' | 'wire'> {
  const repeats = new Map<number, number>();
  groups.forEach((group, panel) => {
    const doc = shown[panel];
    if (doc && doc !== group.median) repeats.set(panel, group.repeats.indexOf(doc));
  });
  return { repeats, wire: Math.max(0, shown.findIndex((d) => d.run.id === wireRunId)) };
}
