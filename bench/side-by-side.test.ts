import { expect, it } from 'vitest';
import { roundRatios, sideBySide } from './side-by-side.ts';

it('runs every variant once a round, rotating the order, and keeps no warm-up samples', async () => {
  const order: string[] = [];
  const variant = (name: string, value: number) => ({ name, measure: async () => (order.push(name), value) });
  const samples = await sideBySide([variant('a', 1), variant('b', 2), variant('c', 3)], 3, 1);
  expect(samples).toEqual({ a: [1, 1, 1], b: [2, 2, 2], c: [3, 3, 3] });
  // Warm-up round (shift 2), then rounds with shifts 0, 1, 2: each variant leads once.
  expect(order).toEqual(['c', 'a', 'b', 'a', 'b', 'c', 'b', 'c', 'a', 'c', 'a', 'b']);
});

it('takes ratios within rounds', () => {
  expect(roundRatios([2, 3, 10], [1, 3, 5])).toEqual({ median: 2, min: 1, max: 2 });
  expect(() => roundRatios([1], [])).toThrow(/equally long/);
});
