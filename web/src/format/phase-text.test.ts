import { describe, expect, it } from 'vitest';
import { PHASE_NAMES, runPhases } from '../../../trace/derive/run-phases.ts';
import { sequentialTrace } from '../test-support/trace-fixtures.ts';
import { PHASE_TEXT, clientPartsText, phaseSourceText, phasesTotalText } from './phase-text.ts';

describe('phase words', () => {
  it('names, explains and sources every part', () => {
    for (const name of PHASE_NAMES) {
      expect(PHASE_TEXT[name].label.length).toBeGreaterThan(0);
      expect(PHASE_TEXT[name].explain).toMatch(/\.$/);
    }
    const phases = runPhases(sequentialTrace(3));
    expect(phases.map((p) => `${PHASE_TEXT[p.name].label}: ${phaseSourceText(p)}`)).toEqual([
      'client before first write: client socket',
      'bytes out, replies awaited: client socket',
      'Redis executing: Redis INFO commandstats',
      'client between a reply and its next write: client socket',
      'client after last read: client socket',
    ]);
  });

  it('adds up the client’s own parts that took time, in order', () => {
    // 3 commands 100 µs round trips (6 µs in Redis), 20 µs turnaround, the first written at 10 µs.
    const doc = sequentialTrace(3);
    expect(phasesTotalText(doc)).toBe('350 µs (t0 → call returned)');
    expect(clientPartsText(runPhases(doc))).toBe('50 µs client (10 µs before first write + 40 µs between replies and next writes)');
    expect(clientPartsText(runPhases(doc).filter((p) => p.name === 'awaiting'))).toBeNull();
  });
});
