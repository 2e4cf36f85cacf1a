import { describe, expect, it } from 'vitest';
import { runPhases, type Phase } from '../../../trace/derive/run-phases.ts';
import { pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { TOTAL_ROOM, phaseBarLayout } from './phase-bar-layout.ts';

const phase = (name: Phase['name'], us: number): Phase => ({ name, us, source: name === 'redisExec' ? 'redis-info' : 'client-socket' });

describe('phaseBarLayout', () => {
  it('lays the parts end to end in order, each as wide as its share of the scale', () => {
    const phases = [phase('beforeFirstWrite', 100), phase('awaiting', 250), phase('redisExec', 50), phase('clientBetween', 0), phase('afterLastRead', 100)];
    const layout = phaseBarLayout(phases, 500, 564); // 500 px for 500 µs
    expect(layout.rects).toEqual([
      { name: 'beforeFirstWrite', x: 0, width: 100, us: 100 },
      { name: 'awaiting', x: 100, width: 250, us: 250 },
      { name: 'redisExec', x: 350, width: 50, us: 50 },
      { name: 'afterLastRead', x: 400, width: 100, us: 100 },
    ]);
    expect(layout.endX).toBe(500);
    expect(layout.totalLabel).toBe('500 µs');
    expect(layout.ticks.map((t) => t.label)).toEqual(['0', '100 µs', '200 µs', '300 µs', '400 µs', '500 µs']);
  });

  it('shares one scale across a comparison: the shorter run’s bar is shorter by its share', () => {
    const seq = sequentialTrace(10); // 1,190 µs
    const pipe = pipelineTrace(10); // 500 µs
    const end = Math.max(seq.totals.doneUs, pipe.totals.doneUs);
    const a = phaseBarLayout(runPhases(seq), end, 664);
    const b = phaseBarLayout(runPhases(pipe), end, 664);
    expect(a.endX).toBe(600);
    expect(b.endX).toBeCloseTo((600 * 500) / 1190, 1);
    // The parts add up to the bar: no gaps, no overlaps.
    for (const layout of [a, b]) {
      const last = layout.rects.at(-1)!;
      expect(last.x + last.width).toBeCloseTo(layout.endX, 1);
      layout.rects.slice(1).forEach((rect, i) => expect(rect.x).toBeCloseTo(layout.rects[i]!.x + layout.rects[i]!.width, 1));
    }
  });

  it('keeps room for the total after the longest bar, and stretches a scale too short for the run', () => {
    const layout = phaseBarLayout([phase('awaiting', 2000)], 1000, 400);
    expect(layout.endX).toBe(400 - TOTAL_ROOM);
    expect(layout.totalLabel).toBe('2 ms');
    expect(phaseBarLayout([], 0, 400)).toMatchObject({ rects: [], endX: 0, totalLabel: '0 µs' });
  });
});
