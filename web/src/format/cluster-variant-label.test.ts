// A request comparing cluster variants (clusterCompare keys): the runs of one mode spread and under one
// hash tag are two groups, each panel and compare row named with its variant, and a verdict line puts
// the two against each other; a lone cluster run, or runs alike in their variant, keep their titles.
import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { runGroups } from '../model/run-groups.ts';
import { spreadPipeline } from '../test-support/cluster-fixtures.ts';
import { clusterVariantLabels, withVariant } from './cluster-variant-label.ts';
import { compareRows } from './compare-rows.ts';
import { comparisonHeadlines } from './comparison-headline.ts';

/** Round `repeat` of a request comparing keys: the spread pipeline (slower: one round trip per node overlapping) and the hash-tagged one. */
function round(repeat: number): TraceDocument[] {
  const spread = spreadPipeline(12, null, 90 + repeat);
  const tagged = spreadPipeline(12, 'tag', 40 + repeat);
  return [
    { ...spread, run: { ...spread.run, id: `spread-${repeat}`, repeat }, cluster: { ...spread.cluster!, keys: 'spread', split: 'parallel' } },
    { ...tagged, run: { ...tagged.run, id: `tag-${repeat}`, repeat }, cluster: { ...tagged.cluster!, keys: 'hashtag', split: 'parallel' } },
  ];
}

describe('runs of one mode in two cluster variants', () => {
  const docs = [0, 1, 2, 3, 4, 5, 6, 7].flatMap(round);
  const groups = runGroups(docs);

  it('are two groups of eight repeats, each labelled with its variant in the panel title and the compare row', () => {
    expect(groups.map((g) => g.repeats.map((d) => d.run.id))).toEqual([
      ['spread-0', 'spread-1', 'spread-2', 'spread-3', 'spread-4', 'spread-5', 'spread-6', 'spread-7'],
      ['tag-0', 'tag-1', 'tag-2', 'tag-3', 'tag-4', 'tag-5', 'tag-6', 'tag-7'],
    ]);
    expect(clusterVariantLabels(groups.map((g) => g.median))).toEqual(['keys spread', 'one hash tag']);
    expect(compareRows(groups, groups.map((g) => g.median)).map((r) => r.mode)).toEqual(['One pipeline · keys spread', 'One pipeline · one hash tag']);
  });

  it('get a verdict line of their own, each side named with its variant', () => {
    const [line] = comparisonHeadlines(groups);
    expect(line!.text).toMatch(/^12 × SET \(16 B values\): one pipeline · keys spread [\d.]+ µs \[.+\], one pipeline · one hash tag [\d.]+ µs \[.+\] — the pipeline · one hash tag [\d.]+× faster/);
    expect(line!.text).toMatch(/in 8 of 8 pairs/);
  });

  it('name both variants where both differ, and none where the runs agree or are not on a cluster', () => {
    const [spread, tagged] = round(0);
    const serial = { ...spread!, cluster: { ...spread!.cluster!, split: 'serial' as const } };
    expect(clusterVariantLabels([spread!, tagged!, serial])).toEqual(['keys spread · nodes at once', 'one hash tag · nodes at once', 'keys spread · one node after another']);
    expect(clusterVariantLabels([spread!])).toEqual(['']);
    const old = { ...spread!, cluster: { ...spread!.cluster! } };
    delete old.cluster.keys; // recorded before the field: spread
    expect(clusterVariantLabels([old, tagged!])).toEqual(['keys spread', 'one hash tag']);
    expect(withVariant('One pipeline', '')).toBe('One pipeline');
  });
});
