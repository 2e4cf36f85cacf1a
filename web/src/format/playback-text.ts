// The playback bar's words: speeds as fractions of real time ("1/200×") and the playhead's place in the
// timeline ("1.23 ms of 4.56 ms"). Pure, so it is unit-tested.
import { formatUs } from './number-format.ts';

/** 1 → "1×", 0.5 → "1/2×", 0.001 → "1/1000×"; a speed that is no whole fraction prints as a decimal. */
export function speedLabel(speed: number): string {
  if (speed >= 1) return `${Number(speed.toPrecision(3))}×`;
  const denominator = Math.round(1 / speed);
  return Math.abs(1 / denominator - speed) < speed * 1e-6 ? `1/${denominator}×` : `${Number(speed.toPrecision(3))}×`;
}

/** Spoken and shown: how far the playhead is, "1.23 ms of 4.56 ms"; null (no playback) says everything is shown. */
export function positionText(positionUs: number | null, endUs: number): string {
  return positionUs === null ? `all ${formatUs(endUs)} shown` : `${formatUs(positionUs)} of ${formatUs(endUs)}`;
}
