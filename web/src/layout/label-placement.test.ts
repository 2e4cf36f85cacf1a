import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../../trace/test-support/seeded-random.ts';
import { boxesOverlap, labelBox, placeLabels, shortenings, type Box, type LabelCandidate, type LabelPlacement } from './label-placement.ts';
import { LABEL_FONTS, estimateTextWidth, type TextMeasure } from './text-measure.ts';

/** 6 px a character: easy to reason about. */
const sixPx: TextMeasure = (text) => [...text].length * 6;
const region: Box = { x0: 0, y0: 0, x1: 360, y1: 500 };

function candidate(key: string, x: number, y: number, over: Partial<LabelCandidate> = {}): LabelCandidate {
  return { key, texts: [key], font: LABEL_FONTS.mark, spots: [{ x, y, anchor: 'start' }], priority: 0, within: region, ...over };
}

function expectNoOverlap(placement: LabelPlacement): void {
  const kept = [...placement.placed.values()];
  const overlapping: string[] = [];
  for (let i = 0; i < kept.length; i++) {
    for (let j = i + 1; j < kept.length; j++) if (boxesOverlap(kept[i]!.box, kept[j]!.box)) overlapping.push(`${kept[i]!.key} × ${kept[j]!.key}`);
  }
  expect(overlapping).toEqual([]);
}

/** Many labels at random spots, priorities and lengths, in a 360 px wide region (a phone's diagram). */
function randomCandidates(seed: number, count: number): LabelCandidate[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, (_, i) => {
    const x = random() * 360;
    const y = 10 + random() * 480;
    const long = 'x'.repeat(3 + Math.floor(random() * 30));
    return candidate(`c${i}`, x, y, {
      texts: [long, long.slice(0, 3)],
      spots: [{ x, y, anchor: random() < 0.5 ? 'start' : 'end' }, { x, y: y + 14, anchor: 'start' }],
      priority: Math.floor(random() * 5),
    });
  });
}

describe('placeLabels', () => {
  it('keeps every label where none collide', () => {
    const placement = placeLabels([candidate('a', 10, 20), candidate('b', 10, 40), candidate('c', 100, 20)], sixPx);
    expect([...placement.placed.keys()]).toEqual(['a', 'b', 'c']);
    expect(placement.dropped).toEqual([]);
  });

  it('never keeps two labels whose boxes intersect, at a 360 px phone width and with hundreds of labels', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const placement = placeLabels(randomCandidates(seed, 400), estimateTextWidth);
      expect(placement.placed.size).toBeGreaterThan(20);
      expect(placement.placed.size + placement.dropped.length).toBe(400);
      expectNoOverlap(placement);
      for (const p of placement.placed.values()) {
        expect(p.box.x0).toBeGreaterThanOrEqual(0);
        expect(p.box.x1).toBeLessThanOrEqual(360);
      }
    }
  });

  it('is deterministic: the same candidates give the same placement', () => {
    const a = placeLabels(randomCandidates(7, 300), estimateTextWidth);
    const b = placeLabels(randomCandidates(7, 300), estimateTextWidth);
    expect([...b.placed.entries()]).toEqual([...a.placed.entries()]);
    expect(b.dropped).toEqual(a.dropped);
  });

  it('keeps the higher priority where two collide, whichever comes first', () => {
    const low = candidate('low', 10, 20, { priority: 1 });
    const high = candidate('high', 14, 22, { priority: 2 });
    for (const order of [[low, high], [high, low]]) {
      const placement = placeLabels(order, sixPx);
      expect([...placement.placed.keys()]).toEqual(['high']);
      expect(placement.dropped).toEqual(['low']);
    }
  });

  it('between equal priorities, keeps the one given first', () => {
    const placement = placeLabels([candidate('first', 10, 20), candidate('second', 14, 22)], sixPx);
    expect([...placement.placed.keys()]).toEqual(['first']);
  });

  it('tries the shorter texts, then drops a label with no room for even the shortest', () => {
    const lane: Box = { x0: 0, y0: 0, x1: 60, y1: 100 };
    const placement = placeLabels([
      candidate('long', 2, 20, { texts: ['write: 30 cmds, 9.8 KiB', '30 cmds, 9.8 KiB', '30 cmds'], within: lane }),
      candidate('none', 2, 50, { texts: ['a label far too long for its lane'], within: lane }),
    ], sixPx);
    expect(placement.placed.get('long')).toMatchObject({ text: '30 cmds', full: 'write: 30 cmds, 9.8 KiB', width: 42 });
    expect(placement.dropped).toEqual(['none']);
  });

  it('moves a label to its next spot when the first is taken, before shortening it', () => {
    const placement = placeLabels([
      candidate('taken', 10, 20, { priority: 1 }),
      candidate('badge', 10, 20, { texts: ['×30 in 1 write', '×30'], spots: [{ x: 10, y: 20, anchor: 'start' }, { x: 10, y: 40, anchor: 'start' }] }),
    ], sixPx);
    expect(placement.placed.get('badge')).toMatchObject({ text: '×30 in 1 write', y: 40 });
  });

  it('measures each box from its anchor, padding and extent', () => {
    const badge = { font: LABEL_FONTS.badge, padX: 5, extent: { top: -10.5, bottom: 3.5 } };
    expect(labelBox(badge, { x: 100, y: 50, anchor: 'end' }, 40)).toEqual({ x0: 55, y0: 39.5, x1: 105, y1: 53.5 });
    expect(labelBox({ font: LABEL_FONTS.mark }, { x: 100, y: 50, anchor: 'start' }, 40)).toEqual({ x0: 100, y0: 50 - 0.93 * 10.5, x1: 140, y1: 50 + 0.24 * 10.5 });
  });

  it('lets labels touch but not overlap', () => {
    expect(boxesOverlap({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 10, y0: 0, x1: 20, y1: 10 })).toBe(false);
    expect(boxesOverlap({ x0: 0, y0: 0, x1: 10, y1: 10 }, { x0: 9.9, y0: 9.9, x1: 20, y1: 20 })).toBe(true);
  });
});

describe('shortenings', () => {
  it('cuts at word boundaries, longest first, with an ellipsis and no dangling punctuation', () => {
    expect(shortenings('— arrows end at the delay proxy’s hand-over to Redis')).toEqual([
      '— arrows end at the delay proxy’s hand-over to…', '— arrows end at the delay proxy’s hand-over…', '— arrows end at the delay proxy’s…',
      '— arrows end at the delay…', '— arrows end at the…', '— arrows end at…', '— arrows end…', '— arrows…',
    ]);
    expect(shortenings('lane: socket writes & reads', 5)).toEqual(['lane: socket writes &…', 'lane: socket writes…', 'lane: socket…']);
    expect(shortenings('Redis 7.0.15', 5)).toEqual(['Redis…']);
  });
});
