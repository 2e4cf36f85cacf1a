// The one verdict rule for "which of two runs is faster", used by the server (when to stop repeating),
// the web (every headline, the compare table, the gallery, the tour, the sweep) , the CLI and the bench.
//
// Two modes of one request run in rounds, each mode once per round, so round i gives a pair: the time of
// A and of B measured a moment apart. The estimate is the median of the per-pair ratios A ÷ B; its 95 %
// interval is the sign test's, read off the sorted ratios: [r₍d₎, r₍k+1−d₎] for k pairs. It holds for any
// distribution of the ratios (heavy tails, a preempted run) because it only counts how many ratios lie
// on each side of a value: if the true median ratio is θ, each pair falls below θ with probability ½,
// whatever the noise. The verdict says "A slower" or "B slower" only when the interval excludes 1, and
// "within noise" only when it includes 1; below 6 pairs no 95 % interval exists (2 × ½⁵ > 5 %).
//
// A request may stop as soon as it is certain ("until certain"). Looking after every pair at 95 % would
// make false verdicts far likelier than 5 % (12–13 % when simulated on measured runs), so it looks only
// at checkpoints fixed in advance (UNTIL_CERTAIN_CHECKPOINTS) and each checkpoint tests at one lower
// nominal level: the largest at which the exact chance of a false verdict at ANY checkpoint stays
// ≤ 5 %. That chance is computed, not bounded: under "no difference" the count of pairs below θ is a
// fair-coin random walk, enumerated checkpoint by checkpoint (design() below). The same walk bounds
// the chance that any checkpoint's interval misses θ, so the interval reported where the request
// stopped is a 95 % interval too. More pairs only add checkpoints: a verdict never becomes less likely.
// A fixed number of pairs is the one-checkpoint case of the same design. Pure; no randomness.

import { MAX_REPEATS } from '../format/run-request.ts';
import type { RoundPlan } from '../format/trace-format.ts';

export type { RoundPlan };

/** The chance of a false verdict the rule allows: the intervals are 95 % intervals. */
export const VERDICT_ALPHA = 0.05;
/** Pairs at which "until certain" looks; the last is its limit, the most rounds a request may ask for. */
export const UNTIL_CERTAIN_CHECKPOINTS: readonly number[] = [10, 15, 20, 30, MAX_REPEATS];
/** The most pairs "until certain" runs. */
export const UNTIL_CERTAIN_LIMIT = UNTIL_CERTAIN_CHECKPOINTS.at(-1)!;
/** The fewest pairs with which any 95 % sign-test interval exists. */
export const MIN_PAIRS_FOR_INTERVAL = 6;

/** A pre-declared set of checkpoints and, for each, the order statistic its interval uses. */
export interface Design {
  /** Pairs at each checkpoint, increasing. */
  checkpoints: readonly number[];
  /** At checkpoint k, the interval is [r₍d₎, r₍k+1−d₎] (1-based order statistics); d = 0: no interval there. */
  depths: readonly number[];
  /** The exact chance, with no real difference, that any checkpoint's interval excludes 1 (≤ VERDICT_ALPHA). */
  falseVerdictChance: number;
}

export interface PairedVerdict {
  /** Pairs available. */
  pairs: number;
  /** Pairs the verdict was read at (a checkpoint ≤ pairs); the first `read` pairs, in round order. */
  read: number;
  /** Median of the read pairs' ratios A ÷ B (> 1: A took longer); NaN without pairs. */
  ratio: number;
  /** 95 % interval of the median ratio; null when too few pairs for one. */
  interval: { lo: number; hi: number } | null;
  /** a-slower / b-slower: the interval lies above / below 1. within-noise: it includes 1. too-few: no interval. */
  outcome: 'a-slower' | 'b-slower' | 'within-noise' | 'too-few';
  /** Of the read pairs, how many the side the estimate calls faster won (ties count for neither). */
  wins: number;
  /** The plan the verdict was read under, and for "until certain" whether it was read at its limit without certainty. */
  plan: RoundPlan;
}

/** P(X ≤ j) for X ~ Binomial(k, ½), exact to double precision for the k used here (≤ a few hundred). */
function fairCoinCdf(k: number, j: number): number {
  let p = 2 ** -k; // P(X = 0)
  let sum = 0;
  for (let i = 0; i <= j && i <= k; i++) {
    sum += p;
    p = (p * (k - i)) / (i + 1);
  }
  return sum;
}

/** The largest d with 2 × P(X ≤ d − 1) ≤ level: the order statistic of a two-sided interval at that level. */
function depthAt(k: number, level: number): number {
  let d = 0;
  while (d < Math.floor(k / 2) && 2 * fairCoinCdf(k, d) <= level) d++;
  return d;
}

/** The fair-coin distribution of heads in `steps` tosses, as probabilities by count. */
function binomial(steps: number): number[] {
  let p = [1];
  for (let i = 0; i < steps; i++) {
    const next = new Array<number>(p.length + 1).fill(0);
    p.forEach((q, j) => {
      next[j]! += q / 2;
      next[j + 1]! += q / 2;
    });
    p = next;
  }
  return p;
}

/**
 * The exact chance that some checkpoint's interval excludes the true median: at checkpoint k with depth
 * d that happens when at most d − 1 of the first k ratios lie below it, or at least k − d + 1 do.
 */
function anyCheckpointRejects(checkpoints: readonly number[], depths: readonly number[]): number {
  let alive = new Map<number, number>([[0, 1]]); // below-count → probability, paths with no rejection so far
  let previous = 0;
  let rejected = 0;
  checkpoints.forEach((k, i) => {
    const step = binomial(k - previous);
    const next = new Map<number, number>();
    for (const [below, p] of alive) step.forEach((q, j) => next.set(below + j, (next.get(below + j) ?? 0) + p * q));
    const d = depths[i]!;
    alive = new Map();
    for (const [below, p] of next) {
      if (d > 0 && (below <= d - 1 || below >= k - d + 1)) rejected += p;
      else alive.set(below, p);
    }
    previous = k;
  });
  return rejected;
}

const designs = new Map<string, Design>();

/**
 * The checkpoints' depths at one common nominal level, the largest whose exact chance of a false
 * verdict at any checkpoint is ≤ alpha (found by bisection: the chance only grows with the level).
 */
export function design(checkpoints: readonly number[], alpha = VERDICT_ALPHA): Design {
  const key = `${checkpoints.join(',')}@${alpha}`;
  const known = designs.get(key);
  if (known) return known;
  if (checkpoints.length === 0 || checkpoints.some((k, i) => !Number.isInteger(k) || k < 1 || (i > 0 && k <= checkpoints[i - 1]!))) {
    throw new Error(`checkpoints must be increasing whole numbers ≥ 1, not ${checkpoints.join(', ')}`);
  }
  let low = 0;
  let high = 2 * alpha;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (anyCheckpointRejects(checkpoints, checkpoints.map((k) => depthAt(k, mid))) <= alpha) low = mid;
    else high = mid;
  }
  const depths = checkpoints.map((k) => depthAt(k, low));
  const made: Design = { checkpoints: [...checkpoints], depths, falseVerdictChance: anyCheckpointRejects(checkpoints, depths) };
  designs.set(key, made);
  return made;
}

/** The design a plan reads k pairs with: one checkpoint at k for a fixed count; the fixed checkpoints until certain. */
export function designFor(plan: RoundPlan, pairs: number): Design {
  // Until certain, fewer pairs than its first checkpoint means the request ended for another reason
  // (runs of a second or more, a cancel) before any look was taken: read them as a fixed count.
  if (plan === 'until-certain' && pairs >= UNTIL_CERTAIN_CHECKPOINTS[0]!) return design(UNTIL_CERTAIN_CHECKPOINTS);
  return design([Math.max(1, pairs)]);
}

/** Median of the ratios, the even case as the geometric midpoint of the middle two. */
function medianRatio(sorted: readonly number[]): number {
  const k = sorted.length;
  if (k === 0) return Number.NaN;
  if (k % 2 === 1) return sorted[(k - 1) / 2]!;
  return Math.sqrt(sorted[k / 2 - 1]! * sorted[k / 2]!);
}

/** The verdict on k ratios read at one checkpoint of depth d. */
function readAt(ratios: readonly number[], d: number, plan: RoundPlan): PairedVerdict {
  const k = ratios.length;
  const sorted = [...ratios].sort((x, y) => x - y);
  const ratio = medianRatio(sorted);
  const interval = d > 0 ? { lo: sorted[d - 1]!, hi: sorted[k - d]! } : null;
  const outcome = interval === null ? 'too-few' : interval.lo > 1 ? 'a-slower' : interval.hi < 1 ? 'b-slower' : 'within-noise';
  const wins = ratio >= 1 ? ratios.filter((r) => r > 1).length : ratios.filter((r) => r < 1).length;
  return { pairs: k, read: k, ratio, interval, outcome, wins, plan };
}

/**
 * The verdict on per-pair ratios A ÷ B, in round order. Until certain: read at the first checkpoint whose
 * interval excludes 1, else at the last checkpoint reached. A fixed count: read at all the pairs.
 */
export function pairedVerdict(ratios: readonly number[], plan: RoundPlan): PairedVerdict {
  const usable = ratios.filter((r) => Number.isFinite(r) && r > 0);
  const { checkpoints, depths } = designFor(plan, usable.length);
  let verdict: PairedVerdict | null = null;
  for (let i = 0; i < checkpoints.length && checkpoints[i]! <= usable.length; i++) {
    verdict = readAt(usable.slice(0, checkpoints[i]), depths[i]!, plan);
    if (verdict.outcome === 'a-slower' || verdict.outcome === 'b-slower') break;
  }
  verdict ??= readAt(usable, 0, plan); // fewer pairs than the first checkpoint: no interval
  return { ...verdict, pairs: usable.length };
}

/** True when the verdict names a faster side. */
export const isCertain = (v: PairedVerdict): boolean => v.outcome === 'a-slower' || v.outcome === 'b-slower';

/**
 * Whether a request running rounds under `plan` should stop after `rounds` of them, judging the
 * comparisons it states: until certain, at a checkpoint where every comparison is certain, or at the
 * limit; a fixed count, when it is reached. Null: run another round.
 */
export function stopAfter(rounds: number, plan: RoundPlan, planned: number, comparisons: readonly (readonly number[])[]): 'certain' | 'limit' | 'planned' | null {
  if (plan === 'fixed') return rounds >= planned ? 'planned' : null;
  if (comparisons.length === 0) return rounds >= planned ? 'planned' : null; // nothing to be certain of
  if (UNTIL_CERTAIN_CHECKPOINTS.includes(rounds) && comparisons.every((ratios) => ratios.length >= rounds && isCertain(pairedVerdict(ratios.slice(0, rounds), plan)))) return 'certain';
  return rounds >= UNTIL_CERTAIN_LIMIT ? 'limit' : null;
}
