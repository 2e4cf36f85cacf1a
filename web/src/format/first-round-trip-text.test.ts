import { describe, expect, it } from 'vitest';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { firstRoundTripText } from './first-round-trip-text.ts';

/** sequentialTrace's 10 round trips of 100 µs, the first one stretched to `firstUs`. */
function withFirst(firstUs: number, warmup: TraceDocument['run']['warmup']): TraceDocument {
  const doc = sequentialTrace(10);
  const shift = firstUs - 100;
  const moved = (atUs: number, i: number) => (i === 0 ? atUs : atUs + shift);
  return {
    ...doc,
    run: { ...doc.run, warmup },
    commands: doc.commands.map((c, i) => ({ ...c, sentUs: moved(c.sentUs, i), repliedUs: c.repliedUs + shift })),
    writes: doc.writes.map((w, i) => ({ ...w, atUs: moved(w.atUs, i) })),
    reads: doc.reads.map((r) => ({ ...r, atUs: r.atUs + shift })),
  };
}

describe('firstRoundTripText', () => {
  it('the first round trip beside the rest, and what is left of the difference', () => {
    expect(firstRoundTripText(withFirst(140, { commands: 10, durationUs: 900, tail: { roundTrips: 3, commands: 3 } }))).toBe(
      'First round trip 140 µs, the rest 100 µs (median of 9): 1.4× — the connection was warmed right up to t0, every probe already attached, so what is left is the machine’s (scheduling, caches).',
    );
    expect(firstRoundTripText(withFirst(750, null))).toBe(
      'First round trip 750 µs, the rest 100 µs (median of 9): 7.5× — a cold connection: its first command pays the connection’s first-call costs.',
    );
    expect(firstRoundTripText(withFirst(120, { commands: 10, durationUs: 900 }))).toBe('First round trip 120 µs, the rest 100 µs (median of 9): 1.2× (client socket).');
  });

  it('none for a run whose commands shared a round trip', () => {
    expect(firstRoundTripText(pipelineTrace(10))).toBeNull();
  });
});
