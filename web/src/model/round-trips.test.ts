// The round-trip count lives in trace/derive/round-trips.ts (shared with the text exports); tested here with the web's trace fixtures.
import { describe, expect, it } from 'vitest';
import { chunkedTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { roundTripsWaited } from '../../../trace/derive/round-trips.ts';

describe('roundTripsWaited', () => {
  it('counts the stretches with a command in flight: one per command sequentially, one per pipeline', () => {
    expect(roundTripsWaited(sequentialTrace(10))).toBe(10);
    expect(roundTripsWaited(pipelineTrace(10))).toBe(1);
    // Written in 4 writes, replies in 3 reads: still one stretch in flight.
    expect(roundTripsWaited(pipelineTrace(1000, 250, 400))).toBe(1);
    expect(roundTripsWaited(chunkedTrace(25, 10))).toBe(3);
  });

  it('a command written at the very instant the previous reply arrived waits a round trip of its own', () => {
    // sequentialTrace(n, rttUs, gapUs = 0): the next write at the time of the previous read.
    expect(roundTripsWaited(sequentialTrace(5, 100, 0))).toBe(5);
  });
});
