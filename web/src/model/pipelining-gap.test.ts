import { describe, expect, it } from 'vitest';
import { commandCosts, gapEstimate, perCommandComparison, ratioAtRtt, rttForRatio, type LivePair } from './pipelining-gap.ts';

// The worked example used throughout: 1,000 commands, 50 µs each sequentially, a 30 µs RTT, so
// s = 50 − 30 = 20 µs; one pipeline of 5,030 µs, so p = (5,030 − 30) / 1,000 = 5 µs.
const COSTS = { sequentialUs: 20, pipelinedUs: 5 };

describe('commandCosts', () => {
  it('takes one RTT per sequential command and one RTT off the whole pipeline', () => {
    expect(commandCosts(1000, 50_000, 5030, 30)).toEqual(COSTS);
  });

  it('never goes below 0 when the RTT probe read longer than a command took', () => {
    expect(commandCosts(10, 200, 10, 30)).toEqual({ sequentialUs: 0, pipelinedUs: 0 });
  });
});

describe('ratioAtRtt', () => {
  it('gives back the live ratio at the live RTT: 50,000 / 5,030 = 9.94', () => {
    expect(ratioAtRtt(1000, COSTS, 30)).toBeCloseTo(50_000 / 5030, 10);
  });

  it('rises toward n as the round trip grows', () => {
    expect(ratioAtRtt(1000, COSTS, 1e9)).toBeCloseTo(1000, 0);
  });
});

describe('rttForRatio', () => {
  it('finds the round trip where the ratio equals the published one: r = n(R·p − s)/(n − R)', () => {
    // R = 20: r = 1,000 × (100 − 20) / 980 = 81.63 µs, 51.63 µs more than the 30 µs measured.
    const m = rttForRatio(1000, COSTS, 30, 20);
    expect(m.kind).toBe('match');
    if (m.kind !== 'match') return;
    expect(m.roundTripUs).toBeCloseTo(81.633, 3);
    expect(m.addedUs).toBeCloseTo(51.633, 3);
    expect(m.addedCapped).toBe(false);
    expect(ratioAtRtt(1000, COSTS, m.roundTripUs)).toBeCloseTo(20, 10);
  });

  it('works the ApsaraDB/Tair figures: 5,844 / 78 = 74.9× over 5,000 INCRs', () => {
    // Live: 250 ms sequential (50 µs each), 25.04 ms pipelined, RTT 40 µs → s = 10 µs, p = 5 µs.
    const costs = commandCosts(5000, 250_000, 25_040, 40);
    expect(costs).toEqual({ sequentialUs: 10, pipelinedUs: 5 });
    const m = rttForRatio(5000, costs, 40, 5844 / 78);
    // r = 5,000 × (74.923 × 5 − 10) / (5,000 − 74.923) = 370.16 µs; added 330.16 µs.
    expect(m.kind === 'match' && m.roundTripUs).toBeCloseTo(370.16, 1);
    expect(m.kind === 'match' && m.addedUs).toBeCloseTo(330.16, 1);
  });

  it('says "below loopback" when the ratio is reached at a shorter round trip than the one measured', () => {
    // R = 9: r = 1,000 × (45 − 20) / 991 = 25.2 µs < 30 µs: our 9.94× is past 9× already.
    const m = rttForRatio(1000, COSTS, 30, 9);
    expect(m.kind).toBe('below-loopback');
    expect(m.kind === 'below-loopback' && m.roundTripUs).toBeCloseTo(25.227, 3);
  });

  it('says no RTT reaches it when r ≤ 0: with no round trip our ratio s/p already exceeds R', () => {
    // s = 30, p = 5: 6× at zero RTT, above the docs' 4.7×; R·p − s < 0.
    expect(rttForRatio(1000, { sequentialUs: 30, pipelinedUs: 5 }, 30, 1185 / 251)).toEqual({ kind: 'pipelined-costlier', zeroRttRatio: 6 });
  });

  it('says no RTT reaches it when R ≥ n', () => {
    expect(rttForRatio(3, COSTS, 30, 4)).toEqual({ kind: 'beyond-n' });
    expect(rttForRatio(3, COSTS, 30, 3)).toEqual({ kind: 'beyond-n' });
  });

  it('caps the added RTT at the delay proxy’s 1,000 ms and gives the ratio there', () => {
    // R = 999: r = 1,000 × (4,995 − 20) / 1 = 4,975,000 µs, far beyond the cap.
    const m = rttForRatio(1000, COSTS, 30, 999);
    expect(m.kind).toBe('match');
    if (m.kind !== 'match') return;
    expect(m.addedCapped).toBe(true);
    expect(m.addedUs).toBe(1_000_000);
    // At 1,000,030 µs: 1,000 × 1,000,050 / 1,005,030 = 995.04.
    expect(m.ratioAtCap).toBeCloseTo(995.04, 2);
  });
});

/** A live pair whose per-round ratios have the median seq ÷ pipe and, with runs ≥ 6, the 95 % interval [lo, hi]. */
const pair = (seq: [number, number, number], pipe: [number, number, number], runs = 10, [lo, hi]: [number, number] = [7.5, 13.33]): LivePair => ({
  n: 1000,
  sequentialUs: { median: seq[0], min: seq[1], max: seq[2] },
  pipelineUs: { median: pipe[0], min: pipe[1], max: pipe[2] },
  rttUs: 30,
  sequentialRuns: runs,
  pipelineRuns: runs,
  ratio: runs >= 6 ? { median: seq[0] / pipe[0], lo, hi, pairs: runs } : { median: seq[0] / pipe[0], lo: null, hi: null, pairs: runs },
});

describe('gapEstimate', () => {
  it('answers from the medians and gives the range from the ratio’s 95 % interval', () => {
    const est = gapEstimate(pair([50_000, 45_000, 60_000], [5030, 4500, 6000]), 20);
    expect(est.costs).toEqual(COSTS);
    expect(est.liveRatio).toEqual({ median: 50_000 / 5030, min: 7.5, max: 13.33 });
    // The interval's upper end, 13.33 ÷ 9.94 = 1.341× the medians' ratio, split as √1.341 = 1.158 on each time:
    // sequential 57,904 µs (s = 27.9), pipeline 4,344 µs (p = 4.314): r = 1,000 × (20 × 4.314 − 27.9) / 980 = 59.6 µs.
    expect(est.low.kind === 'match' && est.low.roundTripUs).toBeCloseTo(59.563, 2);
    // Its lower end, 7.5 ÷ 9.94 = 0.7545×, √ = 0.8686: sequential 43,431 µs (s = 13.43), pipeline 5,791 µs (p = 5.761):
    // r = 1,000 × (20 × 5.761 − 13.43) / 980 = 103.9 µs.
    expect(est.high.kind === 'match' && est.high.roundTripUs).toBeCloseTo(103.87, 1);
    expect(est.noiseCouldFlip).toBe(false);
    expect(est.publishedWithinInterval).toBe(false);
  });

  it('takes the RTT as at most a sequential command’s time, where the model gives back the live ratio', () => {
    // The probe read 937 µs before the run, but a sequential command took 350 µs in all (3.5 s / 10,000).
    const busy: LivePair = { ...pair([3_500_000, 3_500_000, 3_500_000], [279_000, 279_000, 279_000], 1), n: 10_000, rttUs: 937 };
    const est = gapEstimate(busy, 16.8);
    expect(est.rttUs).toBe(350);
    expect(est.rttCapped).toBe(true);
    expect(est.costs.sequentialUs).toBe(0);
    expect(ratioAtRtt(10_000, est.costs, 350)).toBeCloseTo(3_500_000 / 279_000, 10);
    // 12.5× here, below 16.8×: a longer round trip reaches it, where the uncapped probe said "past it already".
    expect(est.match.kind).toBe('match');
  });

  it('flags a verdict that noise could flip', () => {
    // R = 5.5: from the medians at r = 7.5 µs (below loopback), at the interval's upper end no RTT at all.
    const est = gapEstimate(pair([50_000, 45_000, 60_000], [5030, 4500, 6000]), 5.5);
    expect(est.match.kind).toBe('below-loopback');
    expect(est.low.kind).toBe('pipelined-costlier');
    expect(est.noiseCouldFlip).toBe(true);
  });

  it('says when the published ratio lies within the live ratio’s 95 % interval, and never without one', () => {
    expect(gapEstimate(pair([50_000, 45_000, 60_000], [5030, 4500, 6000]), 12).publishedWithinInterval).toBe(true);
    expect(gapEstimate(pair([50_000, 45_000, 60_000], [5030, 4500, 6000]), 14).publishedWithinInterval).toBe(false);
    // Five pairs have no 95 % interval: nothing is claimed, and the medians answer alone.
    const few = gapEstimate(pair([50_000, 45_000, 60_000], [5030, 4500, 6000], 5), 9.94);
    expect(few.publishedWithinInterval).toBe(false);
    expect(few.noiseCouldFlip).toBe(false);
    expect(few.liveRatio).toEqual({ median: 50_000 / 5030, min: 50_000 / 5030, max: 50_000 / 5030 });
  });
});

describe('perCommandComparison', () => {
  it('sets the published times per command beside ours', () => {
    // Tair: 5,844 ms / 5,000 = 1,168.8 µs; 78 ms / 5,000 = 15.6 µs. Live: 50 µs and 5.008 µs.
    const c = perCommandComparison({ sequentialMs: 5844, pipelineMs: 78 }, 5000, { sequentialUs: 250_000, pipelineUs: 25_040 });
    expect(c.publishedSequentialUs).toBeCloseTo(1168.8, 6);
    expect(c.publishedPipelinedUs).toBeCloseTo(15.6, 6);
    expect(c.sequentialFactor).toBeCloseTo(23.376, 3);
    expect(c.pipelinedFactor).toBeCloseTo(3.115, 3);
    // live ratio ÷ published ratio = pipelinedFactor ÷ sequentialFactor.
    expect((250_000 / 25_040) / (5844 / 78)).toBeCloseTo(c.pipelinedFactor / c.sequentialFactor, 10);
  });
});
