import { describe, expect, it } from 'vitest';
import { seededRandom as seeded } from '../test-support/seeded-random.ts';
import { MIN_PAIRS_FOR_INTERVAL, UNTIL_CERTAIN_CHECKPOINTS, design, isCertain, pairedVerdict, stopAfter, type RoundPlan } from './paired-verdict.ts';

/**
 * k pair ratios whose true median is `median`: log-normal noise (σ 0.5) plus, in 10 % of pairs, one side
 * preempted (× 3–20), as a shared 2-core machine does to sub-millisecond runs.
 */
function ratios(random: () => number, k: number, median: number): number[] {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: k }, () => {
    let r = median * Math.exp(0.5 * normal());
    if (random() < 0.1) r = random() < 0.5 ? r * (3 + 17 * random()) : r / (3 + 17 * random());
    return r;
  });
}

/** Share of `trials` seeded samples of k pairs whose verdict names a faster side. */
function concludes(seed: number, trials: number, k: number, median: number, plan: RoundPlan): number {
  const random = seeded(seed);
  let certain = 0;
  for (let t = 0; t < trials; t++) if (isCertain(pairedVerdict(ratios(random, k, median), plan))) certain++;
  return certain / trials;
}

describe('the sign-test interval of the median ratio', () => {
  it('uses the exact binomial order statistics for a fixed number of pairs', () => {
    // P(Bin(k, ½) ≤ d − 1) ≤ 2.5 %: k = 6 → d = 1 (1/64), 10 → 2 (11/1024), 20 → 6 (0.0207), 40 → 14 (0.0192).
    expect(design([6]).depths).toEqual([1]);
    expect(design([10]).depths).toEqual([2]);
    expect(design([20]).depths).toEqual([6]);
    expect(design([40]).depths).toEqual([14]);
    expect(design([20]).falseVerdictChance).toBeCloseTo(2 * 0.020694732666015625, 12);
    // 5 pairs: even [min, max] is only a 93.75 % interval.
    expect(design([5]).depths).toEqual([0]);
    expect(MIN_PAIRS_FOR_INTERVAL).toBe(6);
  });

  it('splits 5 % across the until-certain checkpoints, exactly', () => {
    const d = design(UNTIL_CERTAIN_CHECKPOINTS);
    expect(d.checkpoints).toEqual([10, 15, 20, 30, 40]);
    expect(d.depths).toEqual([2, 3, 5, 9, 13]);
    expect(d.falseVerdictChance).toBeLessThanOrEqual(0.05);
    expect(d.falseVerdictChance).toBeGreaterThan(0.045);
    // Each checkpoint alone tests below 5 %: the sum over checkpoints bounds the chance from above.
    const perCheckpoint = d.checkpoints.map((k, i) => twoSided(k, d.depths[i]!));
    expect(perCheckpoint.every((p) => p < 0.05)).toBe(true);
    expect(perCheckpoint.reduce((a, b) => a + b, 0)).toBeGreaterThan(d.falseVerdictChance);
  });

  it('reads the interval off the sorted ratios and says who was faster only when it excludes 1', () => {
    const pairs = [2.1, 1.9, 2.5, 0.8, 2.2, 2.0, 1.7, 3.0, 2.4, 1.8];
    const v = pairedVerdict(pairs, 'fixed');
    // sorted: 0.8 1.7 1.8 1.9 2.0 2.1 2.2 2.4 2.5 3.0 → d = 2: [1.7, 2.5]; median √(2.0 × 2.1)
    expect(v.interval).toEqual({ lo: 1.7, hi: 2.5 });
    expect(v.ratio).toBeCloseTo(Math.sqrt(2.0 * 2.1), 12);
    expect(v.outcome).toBe('a-slower');
    expect(v.wins).toBe(9);
    const mixed = pairedVerdict([2.1, 0.6, 1.2, 0.8, 1.4, 0.9, 1.1, 0.95, 1.3, 0.7], 'fixed');
    expect(mixed.outcome).toBe('within-noise');
    expect(mixed.interval!.lo).toBeLessThanOrEqual(1);
    expect(mixed.interval!.hi).toBeGreaterThanOrEqual(1);
    expect(pairedVerdict([1 / 2.1, 1 / 1.9, 1 / 2.5, 1 / 2.2, 1 / 2.0, 1 / 1.7], 'fixed').outcome).toBe('b-slower');
  });

  it('has no interval below 6 pairs: "too few", never "within noise"', () => {
    const v = pairedVerdict([5, 6, 7, 8, 9], 'fixed');
    expect(v.outcome).toBe('too-few');
    expect(v.interval).toBeNull();
    expect(v.ratio).toBe(7);
    expect(pairedVerdict([], 'fixed').outcome).toBe('too-few');
    // Until certain, fewer pairs than its first checkpoint read as a fixed count.
    expect(pairedVerdict([2, 2, 2, 2, 2, 2, 2], 'until-certain').outcome).toBe('a-slower');
  });

  it('says "within noise" only when the interval includes 1 (seeded samples of every size)', () => {
    const random = seeded(11);
    for (let t = 0; t < 2000; t++) {
      const k = 6 + Math.floor(random() * 35);
      const v = pairedVerdict(ratios(random, k, 0.8 + 0.5 * random()), random() < 0.5 ? 'fixed' : 'until-certain');
      const includesOne = v.interval !== null && v.interval.lo <= 1 && v.interval.hi >= 1;
      expect(v.outcome === 'within-noise').toBe(includesOne);
      if (v.interval) expect(v.interval.lo).toBeLessThanOrEqual(v.interval.hi);
    }
  });

  it('converges: the interval narrows around the true ratio as pairs grow', () => {
    const widths = [10, 20, 40, 80].map((k) => {
      const random = seeded(5);
      const w: number[] = [];
      let covered = 0;
      for (let t = 0; t < 400; t++) {
        const v = pairedVerdict(ratios(random, k, 2), 'fixed');
        w.push(Math.log(v.interval!.hi / v.interval!.lo));
        if (v.interval!.lo <= 2 && 2 <= v.interval!.hi) covered++;
      }
      expect(covered / 400).toBeGreaterThanOrEqual(0.93); // a 95 % interval, within sampling error
      return w.sort((a, b) => a - b)[200]!;
    });
    for (let i = 1; i < widths.length; i++) expect(widths[i]!).toBeLessThan(widths[i - 1]!);
  });

  it('is never less likely to conclude with more pairs: until certain only adds checkpoints', () => {
    // The same seeded requests cut at each checkpoint: a verdict reached by a checkpoint stays reached.
    const random = seeded(21);
    const requests = Array.from({ length: 1000 }, () => ratios(random, 40, 1.5));
    const rates = UNTIL_CERTAIN_CHECKPOINTS.map((k) => requests.filter((r) => isCertain(pairedVerdict(r.slice(0, k), 'until-certain'))).length / requests.length);
    for (let i = 1; i < rates.length; i++) expect(rates[i]!).toBeGreaterThanOrEqual(rates[i - 1]!);
    expect(rates.at(-1)!).toBeGreaterThan(0.8);
    // A fixed count at the checkpoints: the chance rises with the pairs too (in expectation).
    const fixed = UNTIL_CERTAIN_CHECKPOINTS.map((k) => concludes(33, 1000, k, 1.5, 'fixed'));
    for (let i = 1; i < fixed.length; i++) expect(fixed[i]!).toBeGreaterThanOrEqual(fixed[i - 1]!);
  });

  it('keeps false verdicts at or below 5 % when there is no difference, checkpoints and all', () => {
    for (const plan of ['fixed', 'until-certain'] as const) {
      const random = seeded(plan === 'fixed' ? 3 : 4);
      let wrong = 0;
      const trials = 4000;
      for (let t = 0; t < trials; t++) {
        const r = ratios(random, 40, 1);
        if (isCertain(pairedVerdict(plan === 'fixed' ? r.slice(0, 20) : r, plan))) wrong++;
      }
      expect(wrong / trials).toBeLessThanOrEqual(0.06); // 5 % plus sampling error (σ ≈ 0.35 %)
    }
  });

  it('is not thrown by a preempted run: one huge ratio moves neither the median nor the verdict', () => {
    const base = [2.0, 2.2, 1.9, 2.1, 2.3, 1.8, 2.0, 2.4, 2.1, 1.9];
    const spiked = [...base.slice(0, 9), 0.01];
    expect(pairedVerdict(spiked, 'fixed').outcome).toBe('a-slower');
    expect(pairedVerdict(spiked, 'fixed').ratio).toBeCloseTo(pairedVerdict(base, 'fixed').ratio, 0);
  });
});

describe('stopping between rounds', () => {
  const sure = Array.from({ length: 40 }, () => 2);
  const unsure = Array.from({ length: 40 }, (_, i) => (i % 2 ? 1.5 : 0.7));

  it('until certain stops at the first checkpoint where every comparison is certain', () => {
    expect(stopAfter(6, 'until-certain', 40, [sure])).toBeNull(); // not a checkpoint
    expect(stopAfter(10, 'until-certain', 40, [sure])).toBe('certain');
    expect(stopAfter(10, 'until-certain', 40, [sure, unsure])).toBeNull();
    expect(stopAfter(39, 'until-certain', 40, [unsure])).toBeNull();
    expect(stopAfter(40, 'until-certain', 40, [unsure])).toBe('limit');
  });

  it('a fixed count runs its rounds; one mode has nothing to be certain of', () => {
    expect(stopAfter(9, 'fixed', 10, [sure])).toBeNull();
    expect(stopAfter(10, 'fixed', 10, [sure])).toBe('planned');
    expect(stopAfter(9, 'until-certain', 10, [])).toBeNull();
    expect(stopAfter(10, 'until-certain', 10, [])).toBe('planned');
  });
});

/** 2 × P(Bin(k, ½) ≤ d − 1): one checkpoint's own chance of a false verdict. */
function twoSided(k: number, d: number): number {
  let p = 2 ** -k;
  let sum = 0;
  for (let i = 0; i < d; i++) {
    sum += p;
    p = (p * (k - i)) / (i + 1);
  }
  return 2 * sum;
}
