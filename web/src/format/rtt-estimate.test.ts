import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { chunkedTrace, header } from '../test-support/trace-fixtures.ts';
import { DEFAULT_BASE_RTT_US, baseRttUs, etaUs, expectedSequentialUs, longRunCheck, rttEstimate, rttEstimateText } from './rtt-estimate.ts';

/** n PINGs through 250 ms of added RTT, as the socket probe would see them. */
function slowLinkTrace(mode: RunMode, n: number): TraceDocument {
  const base = header(mode, n, 'PING');
  const b = new TraceBuilder({ ...base, rtt: { addedMs: 250, jitterMs: 0, measuredMinUs: 251_000, measuredMedianUs: 251_200, samples: 3 } });
  if (mode === 'sequential') {
    for (let i = 0; i < n; i++) {
      b.addWrite({ atUs: i * 251_100, bytes: 14, commands: 1 });
      b.addRead({ atUs: i * 251_100 + 251_050, bytes: 7, replies: 1 });
    }
  } else {
    b.addWrite({ atUs: 0, bytes: 14 * n, commands: n });
    b.addRead({ atUs: 251_200, bytes: 7 * n, replies: n });
  }
  for (let i = 0; i < n; i++) b.addOutcome({ reply: 'PONG' });
  return b.finish({ reads: n, writes: n, execUs: 2 * n, source: 'redis-info', exclusive: true });
}

describe('rttEstimate', () => {
  it('sequential: one round trip per command plus Redis service time', () => {
    const e = rttEstimate(slowLinkTrace('sequential', 8));
    expect(e).toMatchObject({ roundTrips: 8, rttUs: 251_000, serviceUs: 2 });
    expect(e.estimateUs).toBe(8 * 251_000 + 8 * 2);
    expect(e.measuredUs).toBe(7 * 251_100 + 251_050);
  });

  it('pipeline: one round trip for the batch', () => {
    const e = rttEstimate(slowLinkTrace('pipeline', 8));
    expect(e.roundTrips).toBe(1);
    expect(e.estimateUs).toBe(251_000 + 16);
  });

  it('chunked: one round trip per pipeline, the last one shorter', () => {
    const e = rttEstimate(chunkedTrace(10_000, 1000, 100, 20));
    expect(e).toMatchObject({ roundTrips: 10, rttUs: 40 });
    expect(rttEstimate(chunkedTrace(25, 10)).roundTrips).toBe(3);
    expect(rttEstimateText(chunkedTrace(25, 10))).toMatch(/^measured .* · estimate 3 × 40 µs RTT \+ 25 × /);
  });

  it('reads as one line: the measured parts adding up to the total, then the estimate beside the parts it covers', () => {
    // 8 round trips of 251,050 µs (16 µs of them Redis), 7 × 50 µs of client turnaround between them.
    expect(rttEstimate(slowLinkTrace('sequential', 8))).toMatchObject({ awaitedUs: 8 * 251_050, roundTripsMeasured: 8 });
    expect(rttEstimateText(slowLinkTrace('sequential', 8))).toBe(
      'measured 2.01 s (t0 → call returned) = 2.01 s replies awaited and Redis executing + 350 µs client (350 µs between replies and next writes) · ' +
        'estimate 8 × 251 ms RTT + 8 × 2 µs in Redis = 2.01 s covers only the replies awaited and Redis executing: ' +
        '8 round trips of 251 ms against the 251 ms PING RTT before t0',
    );
    expect(rttEstimateText(slowLinkTrace('pipeline', 8))).toBe(
      'measured 251 ms (t0 → call returned) = 251 ms replies awaited and Redis executing · ' +
        'estimate 1 × 251 ms RTT + 8 × 2 µs in Redis = 251 ms covers only the replies awaited and Redis executing: ' +
        '1 round trip of 251 ms against the 251 ms PING RTT before t0',
    );
  });

  it('explains a total far above the estimate by the client’s own parts, measured', () => {
    // The motivating case: 10 INCRs in one pipeline, the first byte out 3.9 ms after t0 (the client building and
    // encoding), replies 120 µs later, the call returning 800 µs after the last read.
    const b = new TraceBuilder(header('pipeline', 10));
    b.addWrite({ atUs: 3900, bytes: 560, commands: 10 });
    b.addRead({ atUs: 4020, bytes: 41, replies: 10 });
    for (let i = 0; i < 10; i++) b.addOutcome({ reply: i + 1 });
    const doc = b.finish({ reads: 1, writes: 1, execUs: 18, source: 'redis-info', exclusive: true }, { doneUs: 4820 });
    expect(rttEstimateText(doc)).toBe(
      'measured 4.82 ms (t0 → call returned) = 120 µs replies awaited and Redis executing + 4.7 ms client (3.9 ms before first write + ' +
        '800 µs after last read) · estimate 1 × 40 µs RTT + 10 × 1.8 µs in Redis = 58 µs covers only the replies awaited and ' +
        'Redis executing: 1 round trip of 120 µs against the 40 µs PING RTT before t0',
    );
  });
});

describe('before and during a run', () => {
  it('expects n × (added RTT + base RTT) for a sequential run', () => {
    expect(expectedSequentialUs(1000, 250, 100)).toBe(1000 * 250_100);
  });

  it('estimates the remaining time from the rate so far, and nothing before the first reply', () => {
    expect(etaUs({ n: 10, replied: 0, lastUs: 0 })).toBeUndefined();
    expect(etaUs({ n: 10, replied: 4, lastUs: 1_000_000 })).toBe(1_500_000);
  });
});

describe('long sequential runs ask first', () => {
  it('asks when N round trips exceed two minutes, and suggests an N of about a minute', () => {
    // 1000 × (250 ms + 0.1 ms) = 250.1 s
    expect(longRunCheck({ n: 1000, rttMs: 250, modes: ['sequential', 'pipeline'] }, 100)).toEqual({
      mode: 'sequential', roundTrips: 1000, expectedUs: 250_100_000, suggestedN: 239,
    });
  });

  it('counts two round trips per GET-COMPUTE-SET step run sequentially', () => {
    expect(longRunCheck({ n: 500, rttMs: 250, modes: ['sequential', 'eval'], command: 'GET-COMPUTE-SET' }, 100)).toEqual({
      mode: 'sequential', roundTrips: 1000, expectedUs: 250_100_000, suggestedN: 119,
    });
  });

  it('does not ask for short runs or pipelines alone', () => {
    expect(longRunCheck({ n: 400, rttMs: 250, modes: ['sequential'] }, 100)).toBeNull();
    expect(longRunCheck({ n: 100_000, rttMs: 250, modes: ['pipeline'] }, 100)).toBeNull();
  });

  it('asks for a chunked run of minutes too: one round trip per pipeline, suggesting whole pipelines', () => {
    // 1,000,000 in pipelines of 1,000 = 1,000 round trips of 250.1 ms
    expect(longRunCheck({ n: 1_000_000, rttMs: 250, modes: ['pipeline', 'chunked'], chunk: 1000 }, 100)).toEqual({
      mode: 'chunked', roundTrips: 1000, expectedUs: 250_100_000, suggestedN: 239_000,
    });
    expect(longRunCheck({ n: 1_000_000, rttMs: 250, modes: ['pipeline', 'chunked'], chunk: 10_000 }, 100)).toBeNull();
    // With a sequential run in the request, that one counts.
    expect(longRunCheck({ n: 1000, rttMs: 250, modes: ['sequential', 'pipeline', 'chunked'], chunk: 10 }, 100)?.mode).toBe('sequential');
  });

  it('takes the base RTT from the latest trace, without its added delay', () => {
    expect(baseRttUs(undefined)).toBe(DEFAULT_BASE_RTT_US);
    expect(baseRttUs(slowLinkTrace('sequential', 2))).toBe(1_000);
  });
});
