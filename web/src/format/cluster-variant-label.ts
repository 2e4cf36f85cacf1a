// What tells apart runs of one mode on a Redis Cluster that differ only in their cluster variant (a
// request comparing them, clusterCompare): where their keys went (cluster.keys: spread over slots, or
// under one hash tag) and how a pipeline was split (cluster.split: every node at once, or one after
// another). Said only of what the runs on screen differ in, so a lone cluster run's title stays as it was.
// Pure; the panels' titles, the compare table's rows and the verdict lines read it.
import type { TraceDocument } from '../../../trace/format/trace-format.ts';

const KEYS_TEXT = { spread: 'keys spread', hashtag: 'one hash tag' } as const;
const SPLIT_TEXT = { parallel: 'nodes at once', serial: 'one node after another' } as const;

const keysOf = (doc: TraceDocument) => (doc.cluster ? doc.cluster.keys ?? 'spread' : null);
const splitOf = (doc: TraceDocument) => doc.cluster?.split ?? null;

/**
 * Per run (in the order given), its variant in words where the runs differ in it: "keys spread", "one
 * hash tag", "nodes at once", "one node after another", both joined by " · " when both differ; "" when
 * its runs do not differ (or it is no cluster run).
 */
export function clusterVariantLabels(docs: readonly TraceDocument[]): string[] {
  const keysDiffer = new Set(docs.map(keysOf).filter((k) => k !== null)).size > 1;
  const splitDiffer = new Set(docs.map(splitOf).filter((s) => s !== null)).size > 1;
  return docs.map((doc) => {
    const keys = keysOf(doc);
    const split = splitOf(doc);
    return [keysDiffer && keys ? KEYS_TEXT[keys] : null, splitDiffer && split ? SPLIT_TEXT[split] : null].filter(Boolean).join(' · ');
  });
}

/** A label with its variant after it: "One pipeline · one hash tag"; the label alone without one. */
export const withVariant = (label: string, variant: string | undefined): string => (variant ? `${label} · ${variant}` : label);
