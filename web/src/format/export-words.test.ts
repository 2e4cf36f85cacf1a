// The text exports (trace/export-words.ts, trace/run-flow.ts) repeat a few of the app's words because
// trace/ cannot import the web app; these checks keep both saying the same.
import { describe, expect, it } from 'vitest';
import { MODE_BADGES, formatCount as exportCount, formatUs as exportUs, runTitleText } from '../../../trace/export-words.ts';
import { roundTrips } from '../../../trace/run-flow.ts';
import { RUN_MODES } from '../../../trace/trace-format.ts';
import { roundTripsWaited } from '../model/round-trips.ts';
import { chunkedTrace, modeTrace, pipelineTrace, sequentialTrace } from '../test-support/trace-fixtures.ts';
import { formatCount, formatUs } from './number-format.ts';
import { modeBadge, runTitle } from './run-label.ts';

describe('the exports speak as the app does', () => {
  it('formats times and counts alike', () => {
    for (const us of [0, 0.5, 12, 845, 999.4, 1000, 1040, 64_712, 999_999, 1_440_000, -3]) expect(exportUs(us)).toBe(formatUs(us));
    for (const n of [0, 7, 1000, 1_000_000]) expect(exportCount(n)).toBe(formatCount(n));
  });

  it('names runs and modes alike', () => {
    for (const mode of RUN_MODES) expect(MODE_BADGES[mode]).toBe(modeBadge(mode));
    for (const doc of [sequentialTrace(10), pipelineTrace(100), chunkedTrace(20, 5), chunkedTrace(5, 10), modeTrace('multi', 10), sequentialTrace(3, 100, 20, 'SET')]) {
      expect(runTitleText(doc.run)).toBe(runTitle(doc.run));
    }
  });

  it('counts round trips alike', () => {
    for (const doc of [sequentialTrace(10), pipelineTrace(100), chunkedTrace(20, 5), modeTrace('evalsha', 4)]) expect(roundTrips(doc)).toBe(roundTripsWaited(doc));
  });
});
