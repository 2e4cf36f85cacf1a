import { describe, expect, it } from 'vitest';
import { positionText, speedLabel } from './playback-text.ts';

describe('playback text', () => {
  it('names every speed as a fraction of real time', () => {
    expect([1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001].map(speedLabel)).toEqual(['1×', '1/2×', '1/5×', '1/10×', '1/20×', '1/50×', '1/100×', '1/200×', '1/500×', '1/1000×']);
    expect(speedLabel(0.3)).toBe('0.3×');
    expect(speedLabel(2)).toBe('2×');
  });

  it('says where the playhead is in the timeline', () => {
    expect(positionText(1234, 4560)).toBe('1.23 ms of 4.56 ms');
    expect(positionText(0, 350)).toBe('0 µs of 350 µs');
    expect(positionText(null, 4560)).toBe('all 4.56 ms shown');
  });
});
