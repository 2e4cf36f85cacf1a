import { expect, it } from 'vitest';
import { RTT_STOPS_MS, rttAtStop, stopIndexFor } from './rtt-slider-stops.ts';

it('maps typed values to the stop at or below them, and back', () => {
  expect(stopIndexFor('0')).toBe(0);
  expect(stopIndexFor('250')).toBe(RTT_STOPS_MS.indexOf(250));
  expect(stopIndexFor('300')).toBe(RTT_STOPS_MS.indexOf(250));
  expect(stopIndexFor('0.5')).toBe(1);
  expect(rttAtStop(stopIndexFor('80'))).toBe(80);
});

it('is tolerant of what a user types and of positions out of range', () => {
  expect(stopIndexFor('')).toBe(0);
  expect(stopIndexFor('fast')).toBe(0);
  expect(stopIndexFor('-5')).toBe(0);
  expect(rttAtStop(99)).toBe(1000);
  expect(rttAtStop(-1)).toBe(0);
});
