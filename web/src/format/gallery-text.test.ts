import { describe, expect, it } from 'vitest';
import { gapEstimate, type LivePair } from '../model/pipelining-gap.ts';
import { publishedBenchmark } from '../model/published-benchmarks.ts';
import { galleryTrace } from '../test-support/gallery-fixtures.ts';
import { addedRttMs, delayedPredictionText, factorText, gapText, netcatText, rttMsText, whyDiffersText } from './gallery-text.ts';

/**
 * n commands: 50 µs each sequentially with a 40 µs RTT (s = 10 µs), one pipeline of 5.008 µs per command;
 * ten rounds, their per-round ratios within ± 2 × spread of the medians' (the 95 % interval).
 */
function pair(n: number, spread = 0.04): LivePair {
  const seq = 50 * n;
  const pipe = 40 + 5 * n;
  return {
    n,
    sequentialUs: { median: seq, min: seq * (1 - spread), max: seq * (1 + spread) },
    pipelineUs: { median: pipe, min: pipe * (1 - spread), max: pipe * (1 + spread) },
    rttUs: 40,
    sequentialRuns: 10,
    pipelineRuns: 10,
    ratio: { median: seq / pipe, lo: (seq / pipe) * (1 - 2 * spread), hi: (seq / pipe) * (1 + 2 * spread), pairs: 10 },
  };
}

/** The pair with other sequential times; its ratio's interval from their range over the pipeline's median. */
function withSequential(p: LivePair, median: number, min = median, max = median): LivePair {
  const pipe = p.pipelineUs.median;
  return { ...p, sequentialUs: { median, min, max }, ratio: { median: median / pipe, lo: min / pipe, hi: max / pipe, pairs: 10 } };
}

describe('numbers', () => {
  it('prints factors whole above 10 and with one decimal below', () => {
    expect(factorText(74.92)).toBe('75×');
    expect(factorText(4.72)).toBe('4.7×');
    expect(factorText(9.96)).toBe('10×');
  });

  it('asks the delay proxy for whole 10 µs, at least 0.01 ms and at most 1,000 ms', () => {
    expect(addedRttMs(330.16)).toBe(0.33);
    expect(addedRttMs(2)).toBe(0.01);
    expect(addedRttMs(5_000_000)).toBe(1000);
    expect(rttMsText(0.33)).toBe('0.33 ms');
    expect(rttMsText(1000)).toBe('1,000 ms');
  });
});

describe('gapText', () => {
  it('gives the added RTT at which the model meets the published ratio, with the repeats’ range (Tair, ~75×)', () => {
    const b = publishedBenchmark('tair-incr');
    const p = pair(5000);
    // s = 10 µs, p = 5 µs; r = 5,000 × (74.92 × 5 − 10) / 4,925.1 = 370 µs, 0.33 ms above the 40 µs RTT.
    expect(gapText(b, p, gapEstimate(p, b.figures!.ratio))).toBe(
      'Besides the round trip (40 µs measured on this connection), each command cost 10 µs sequentially and 5 µs pipelined here. ' +
        'With a round trip of 370 µs the model puts our ratio at ~75×: 0.33 ms [0.31–0.35 ms] more than this connection’s own.',
    );
  });

  it('says our ratio is past theirs already when the match needs less than loopback’s round trip (the docs, ~4.7×)', () => {
    const b = publishedBenchmark('docs-ping');
    const p = pair(10_000, 0.01);
    expect(gapText(b, p, gapEstimate(p, b.figures!.ratio))).toMatch(
      /The model reaches ~4\.7× at a round trip of 13\.6 µs, shorter than the loopback one measured here: our ratio is past theirs already/,
    );
  });

  it('says why no RTT reaches it when the published client spent more per pipelined command', () => {
    const b = publishedBenchmark('docs-ping');
    // 80 µs per sequential command (s = 40 µs), 5 µs pipelined: 8× even with no round trip.
    const p = withSequential(pair(10_000, 0), 800_000);
    expect(gapText(b, p, gapEstimate(p, b.figures!.ratio))).toMatch(
      /No added RTT brings our ratio to ~4\.7×: with no round trip at all it would still be 8\.0×\. The published client spent more per pipelined command, against a sequential one, than this one: its ratio is lower than ours at any RTT\.$/,
    );
  });

  it('gives the range of verdicts, not one, when noise could flip it', () => {
    const b = publishedBenchmark('docs-ping');
    // Medians: s = 10, p = 5, so R = 4.7 needs r = 13.6 µs (below loopback); the interval's upper end (a ratio 1.6× higher) needs none.
    const p = withSequential(pair(10_000, 0), 500_000, 500_000, 800_000);
    expect(gapText(b, p, gapEstimate(p, b.figures!.ratio))).toMatch(
      /Noise could flip the answer: the medians call for a round trip shorter than loopback’s to reach ~4\.7×, the ends of the ratio’s 95 % interval for no RTT at all to a round trip shorter than loopback’s\.$/,
    );
  });

  it('says when even the delay proxy’s maximum falls short', () => {
    const b = { ...publishedBenchmark('tair-incr'), figures: { ...publishedBenchmark('tair-incr').figures!, ratio: 4999, ratioText: '4,999×' } };
    const p = pair(5000, 0);
    expect(gapText(b, p, gapEstimate(p, 4999))).toMatch(/only with more than the delay proxy’s 1,000 ms of added RTT; at 1,000 ms the model gives \d[\d,]*×\.$/);
  });
});

describe('gapText when the RTT probe read longer than a sequential command took', () => {
  it('takes the round trip as at most a sequential command’s time, and says so, instead of "0 µs"', () => {
    const b = publishedBenchmark('blog-ping');
    // 40 µs per sequential command against a 53.5 µs RTT measured before the run.
    const p: LivePair = { ...withSequential(pair(10_000, 0), 400_000), rttUs: 53.5 };
    expect(gapText(b, p, gapEstimate(p, b.figures!.ratio))).toMatch(
      /^Besides the round trip \(at most 40 µs: the 53\.5 µs probed before the run read longer than a sequential command took\), each command cost nothing measurable sequentially and 5 µs pipelined here\./,
    );
    expect(whyDiffersText(b, p)).toMatch(/here 40 µs \(no more than the 53\.5 µs round trip measured before the run; 1\.5× more here\)/);
  });
});

describe('delayedPredictionText', () => {
  it('gives the model’s ratio at the RTT asked for, then what it expected of each mode against what the rerun measured', () => {
    // Direct: s = 10 µs, p = 5 µs, RTT 40 µs; asked 0.33 ms more = 370 µs. Expected: 380 µs per sequential
    // command, 370 + 25,000 µs for the pipeline. The rerun: 2 s / 5,000 = 400 µs per command, a 12 ms pipeline.
    const rerun: LivePair = { ...pair(5000, 0), sequentialUs: { median: 2_000_000, min: 2_000_000, max: 2_000_000 }, pipelineUs: { median: 12_000, min: 12_000, max: 12_000 } };
    expect(delayedPredictionText(pair(5000), rerun, 0.33, '~75×')).toBe(
      'The model, fitted on the run without delay, predicted 75× at this round trip (370 µs: the connection’s 40 µs plus 0.33 ms added); published: ~75×. ' +
        'Expected against measured: 380 µs against 400 µs per sequential command, 25.4 ms against 12 ms for the pipeline.',
    );
  });

  it('says when each sequential round trip took clearly longer than asked', () => {
    // 5 s / 5,000 = 1 ms per command against 380 µs expected: 620 µs more.
    const rerun: LivePair = { ...pair(5000, 0), sequentialUs: { median: 5_000_000, min: 5_000_000, max: 5_000_000 } };
    expect(delayedPredictionText(pair(5000), rerun, 0.33, '~75×')).toMatch(
      / Each sequential round trip took 620 µs more than the delay asked for: the proxy’s own relay, or a busier machine than during the run without delay\.$/,
    );
  });
});

describe('whyDiffersText', () => {
  it('puts the Tair gap on the sequential side: the cloud round trip against loopback', () => {
    expect(whyDiffersText(publishedBenchmark('tair-incr'), pair(5000))).toBe(
      'Per command, the ApsaraDB/Tair guide measured 1.17 ms sequentially and 15.6 µs pipelined; here 50 µs (80% of it the 40 µs round trip; 23× less here) ' +
        'and 5.01 µs (3.1× less here). Our ratio is lower mostly because of the sequential side — the round trip over the cloud network between client and instance, against loopback here.',
    );
  });

  it('puts the blog’s gap on the pipelined side, with the time our client spent before its first byte', () => {
    expect(whyDiffersText(publishedBenchmark('blog-ping'), pair(10_000), 30_000)).toBe(
      'Per command, the blog review measured 26.4 µs sequentially and 0.96 µs pipelined; here 50 µs (80% of it the 40 µs round trip; 1.9× more here) ' +
        'and 5 µs (5.2× more here). Our ratio is lower mostly because of the pipelined side — the client and machine: a Go Redis client there ' +
        '(machine: a laptop with 2 cores), ioredis on Node here; 30 ms of our pipeline’s 50 ms passed in the client before its first byte left.',
    );
  });

  it('says the Tencent article gives only a ratio, and what each command cost here', () => {
    expect(whyDiffersText(publishedBenchmark('tencent-set'), pair(10_000))).toBe(
      'The Tencent Cloud article gives only its ratio, so its times cannot be set beside ours. Here a sequential SET took 50 µs (80% of it the 40 µs round trip) ' +
        'and a pipelined one 5 µs, 10× apart. Its client reached Redis over a network across a city, whose round trip it does not state: ' +
        'every sequential command pays that round trip, one pipeline pays it once.',
    );
  });
});

describe('netcatText', () => {
  it('reads the raw socket’s bytes off the trace', () => {
    const doc = galleryTrace(publishedBenchmark('docs-netcat').spec, 'pipeline', 80);
    expect(netcatText(doc)).toBe(
      '1 write() of 18 B carried PING\\r\\nPING\\r\\nPING\\r\\n; 3 replies came back in 1 read: +PONG\\r\\n+PONG\\r\\n+PONG\\r\\n (client socket).',
    );
  });
});
