// The round-trip count lives in trace/derive/round-trips.ts (shared with the text exports); tested here with the web's trace fixtures.
import { describe, expect, it } from 'vitest';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import type { RunMode, TraceDocument } from '../../../trace/format/trace-format.ts';
import { chunkedTrace, header, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
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

/**
 * Four INCRs issued together, written as node-redis writes a pipeline: in four pieces, one per turn of
 * its event loop, Redis answering each piece before the next is written (nothing in flight between).
 */
function writtenInPieces(mode: RunMode): TraceDocument {
  const b = new TraceBuilder(header(mode, 4, 'INCR', `pieces-${mode}`));
  for (let k = 0; k < 4; k++) {
    b.addWrite({ atUs: 100 * k, bytes: 40, commands: 1 });
    b.addRead({ atUs: 100 * k + 50, bytes: 4, replies: 1 });
    b.addOutcome({ reply: k + 1 });
  }
  return b.finish({ reads: 4, writes: 4, execUs: 4, source: 'redis-info', exclusive: true });
}

describe('roundTripsWaited: one definition, whatever the library does with the writes', () => {
  it('a pipeline written in four pieces, each answered before the next, is one round trip, in pipeline and auto mode alike', () => {
    expect(roundTripsWaited(writtenInPieces('pipeline'))).toBe(1);
    expect(roundTripsWaited(writtenInPieces('auto'))).toBe(1);
    // The same socket events from a sequential run are four waits: each command was issued after the reply before it.
    expect(roundTripsWaited(writtenInPieces('sequential'))).toBe(4);
  });
});

describe('roundTripsWaited: an observed connection', () => {
  it('counts every wait of the client with nothing in flight: observed, the four pieces are four round trips', () => {
    // A user's client through the observing port: its batches are not Pipescope's to know; each time it
    // wrote only after every reply was read, it waited.
    const doc = writtenInPieces('pipeline');
    const observed = { ...doc, run: { ...doc.run, observed: {} as NonNullable<TraceDocument['run']['observed']> } };
    expect(roundTripsWaited(observed)).toBe(4);
  });
});
