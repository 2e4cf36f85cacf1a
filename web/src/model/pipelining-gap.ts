// Why a live sequential-vs-pipeline ratio differs from a published one, as numbers. A run of n commands
// is modelled as round trips plus per-command costs (sequentially each command pays a round trip; one
// pipeline pays one in all):
//   sequential time = n × (RTT + s)      pipeline time = RTT + n × p
// where s and p are what each command costs besides the round trip (client, kernel, Redis). From a live
// pair and the RTT measured on the run's own connection, s and p follow; the ratio at a round trip r is
//   ratio(r) = n(r + s) / (r + n·p)
// and it equals a published ratio R at r = n(R·p − s) / (n − R), when that r is positive. The delay
// proxy adds to the connection's own RTT, so the added RTT asked for is r minus the RTT measured here.
// Every time is µs. Pure and unit-tested with worked numbers (pipelining-gap.test.ts).
import { MAX_ADDED_RTT_MS } from '../../../trace/format/run-request.ts';
import type { Spread } from '../../../trace/format/sweep-format.ts';

/** A live pair: n operations each way, the modes' total times over their repeats, the connection's RTT. */
export interface LivePair {
  n: number;
  /** t0 → last reply of the sequential runs, µs, median [min–max] over the repeats. */
  sequentialUs: Spread;
  pipelineUs: Spread;
  /** PING round trip on the run's own connection before t0 (rtt.measuredMedianUs), median over every repeat, µs. */
  rttUs: number;
  /** Repeats behind each spread. */
  sequentialRuns: number;
  pipelineRuns: number;
  /**
   * Sequential ÷ pipeline by the one verdict rule (trace/derive/paired-verdict.ts): the median of the
   * per-round ratios and its 95 % interval (null ends with fewer than 6 pairs), over `pairs` rounds.
   */
  ratio: { median: number; lo: number | null; hi: number | null; pairs: number };
}

/** What each command costs besides the round trip, µs; never below 0 (a noisy RTT may exceed a command's share). */
export interface CommandCosts {
  /** s: sequential time per command minus one RTT. */
  sequentialUs: number;
  /** p: (pipeline time − one RTT) / n. */
  pipelinedUs: number;
}

export function commandCosts(n: number, sequentialUs: number, pipelineUs: number, rttUs: number): CommandCosts {
  return { sequentialUs: Math.max(0, sequentialUs / n - rttUs), pipelinedUs: Math.max(0, (pipelineUs - rttUs) / n) };
}

/** The modelled ratio sequential ÷ pipeline at a round trip of rttUs. */
export function ratioAtRtt(n: number, costs: CommandCosts, rttUs: number): number {
  return (n * (rttUs + costs.sequentialUs)) / (rttUs + n * costs.pipelinedUs);
}

/**
 * Where the published ratio R is reached, if anywhere:
 * - match: at a round trip of roundTripUs, longer than the connection's own: the delay proxy adds addedUs
 *   (capped at what the proxy allows: addedCapped, then the ratio there is ratioAtCap);
 * - below-loopback: at a round trip shorter than the one measured here: our ratio is already past R;
 * - pipelined-costlier: at no round trip (r ≤ 0): R ≤ s/p, our ratio with no round trip at all, so the
 *   published client spent more per pipelined command, relative to a sequential one, than this one;
 * - beyond-n: R ≥ n: n commands in one pipeline can be at most n times faster than sequentially.
 */
export type RttMatch =
  | { kind: 'match'; roundTripUs: number; addedUs: number; addedCapped: boolean; ratioAtCap: number | null }
  | { kind: 'below-loopback'; roundTripUs: number }
  | { kind: 'pipelined-costlier'; zeroRttRatio: number }
  | { kind: 'beyond-n' };

export const MAX_ADDED_RTT_US = MAX_ADDED_RTT_MS * 1000;

export function rttForRatio(n: number, costs: CommandCosts, rttUs: number, ratio: number): RttMatch {
  if (ratio >= n) return { kind: 'beyond-n' };
  const s = costs.sequentialUs;
  const p = costs.pipelinedUs;
  const r = (n * (ratio * p - s)) / (n - ratio);
  if (!(r > 0)) return { kind: 'pipelined-costlier', zeroRttRatio: p > 0 ? s / p : Infinity };
  if (r <= rttUs) return { kind: 'below-loopback', roundTripUs: r };
  const addedUs = r - rttUs;
  const addedCapped = addedUs > MAX_ADDED_RTT_US;
  return {
    kind: 'match', roundTripUs: r, addedUs: Math.min(addedUs, MAX_ADDED_RTT_US), addedCapped,
    ratioAtCap: addedCapped ? ratioAtRtt(n, costs, rttUs + MAX_ADDED_RTT_US) : null,
  };
}

export interface GapEstimate {
  /** The round trip the model took (effectiveRttUs), µs, and whether the probe read longer than that. */
  rttUs: number;
  rttCapped: boolean;
  /** From the medians. */
  costs: CommandCosts;
  /** Live ratio sequential ÷ pipeline: the median per-round ratio, and its 95 % interval as [min–max] (the median alone without one). */
  liveRatio: Spread;
  match: RttMatch;
  /**
   * The same question answered at the ends of the ratio's 95 % interval (each end's distance from the
   * medians' ratio split evenly, in log, between the sequential and the pipelined time): `low` at its
   * upper end (the least added RTT needed), `high` at its lower end. The medians' answer without an interval.
   */
  low: RttMatch;
  high: RttMatch;
  /** True when the interval's ends give another kind of answer than the medians: noise could flip the verdict. */
  noiseCouldFlip: boolean;
  /** True when the published ratio lies within the live ratio's 95 % interval: noise alone could account for the difference. */
  publishedWithinInterval: boolean;
}

/**
 * The round trip the model takes for a live pair, µs: the PINGs' median before t0, but never more than
 * a sequential command took in all (a busy machine can slow the probe more than the run); at that cap
 * the model gives back the live ratio exactly (s = 0, p = (pipeline − RTT)/n).
 */
export function effectiveRttUs(pair: Pick<LivePair, 'n' | 'sequentialUs' | 'rttUs'>, sequentialUs = pair.sequentialUs.median): number {
  return Math.min(pair.rttUs, sequentialUs / pair.n);
}

export function gapEstimate(pair: LivePair, publishedRatio: number): GapEstimate {
  const { n, sequentialUs: seq, pipelineUs: pipe } = pair;
  const rttUs = effectiveRttUs(pair);
  const at = (seqUs: number, pipeUs: number) => {
    const rtt = effectiveRttUs(pair, seqUs);
    return rttForRatio(n, commandCosts(n, seqUs, pipeUs, rtt), rtt, publishedRatio);
  };
  const costs = commandCosts(n, seq.median, pipe.median, rttUs);
  const match = rttForRatio(n, costs, rttUs, publishedRatio);
  const { lo, hi } = pair.ratio;
  // A ratio at the interval's end, its change from the median split evenly (in log) between the two times.
  const atRatio = (ratio: number) => {
    const k = Math.sqrt(ratio / (seq.median / pipe.median));
    return at(seq.median * k, pipe.median / k);
  };
  const low = hi === null ? match : atRatio(hi);
  const high = lo === null ? match : atRatio(lo);
  const liveRatio = { median: pair.ratio.median, min: lo ?? pair.ratio.median, max: hi ?? pair.ratio.median };
  return {
    rttUs, rttCapped: rttUs < pair.rttUs, costs, liveRatio, match, low, high,
    noiseCouldFlip: low.kind !== match.kind || high.kind !== match.kind,
    publishedWithinInterval: lo !== null && hi !== null && lo <= publishedRatio && publishedRatio <= hi,
  };
}

/**
 * The published and live times per command, µs, side by side: how much faster each mode is here.
 * liveRatio ÷ publishedRatio = pipelinedFactor ÷ sequentialFactor, so the larger factor says which side
 * moved the ratio.
 */
export interface PerCommandComparison {
  publishedSequentialUs: number;
  publishedPipelinedUs: number;
  liveSequentialUs: number;
  livePipelinedUs: number;
  /** published ÷ live, per sequential command (> 1: faster here). */
  sequentialFactor: number;
  pipelinedFactor: number;
}

export function perCommandComparison(
  published: { sequentialMs: number; pipelineMs: number },
  n: number,
  live: { sequentialUs: number; pipelineUs: number },
): PerCommandComparison {
  const publishedSequentialUs = (published.sequentialMs * 1000) / n;
  const publishedPipelinedUs = (published.pipelineMs * 1000) / n;
  const liveSequentialUs = live.sequentialUs / n;
  const livePipelinedUs = live.pipelineUs / n;
  return {
    publishedSequentialUs, publishedPipelinedUs, liveSequentialUs, livePipelinedUs,
    sequentialFactor: publishedSequentialUs / liveSequentialUs,
    pipelinedFactor: publishedPipelinedUs / livePipelinedUs,
  };
}
