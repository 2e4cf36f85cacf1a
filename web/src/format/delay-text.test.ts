import { describe, expect, it } from 'vitest';
import type { Rtt } from '../../../trace/format/trace-format.ts';
import { delayText } from './delay-text.ts';

const measured = (medianUs: number, directUs = 32): Rtt => ({
  addedMs: 1, jitterMs: 0, measuredMinUs: medianUs - 10, measuredMedianUs: medianUs, samples: 11,
  mechanism: 'proxy', measuredP10Us: medianUs - 8, measuredP90Us: medianUs + 40, directMedianUs: directUs, hopCompensationUs: 9.5,
});

describe('delayText', () => {
  it('says what was asked, by what, and what was measured beside it', () => {
    expect(delayText(measured(1052))).toBe('added delay: 1 ms RTT (proxy) · measured +1.02 ms per round trip (PING ×11 1.05 ms median, p10–p90 1.04 ms–1.09 ms; direct 32 µs)');
  });

  it('says so when the measured added round trip is more than 5 % off', () => {
    expect(delayText(measured(1182))).toMatch(/ · measured \+1\.15 ms per round trip, 15 % over what was asked \(a busy machine delays any thread\) \(/);
    expect(delayText(measured(932))).toMatch(/, 10 % under what was asked/);
  });

  it('none without added delay; the short form for traces recorded before the measured figures', () => {
    expect(delayText({ addedMs: 0, jitterMs: 0, measuredMinUs: 30, measuredMedianUs: 35, samples: 5 })).toBeNull();
    expect(delayText({ addedMs: 50, jitterMs: 5, measuredMinUs: 50_030, measuredMedianUs: 50_035, samples: 3 })).toBe('added delay: 50 ms RTT ± 5 ms (proxy)');
  });
});
