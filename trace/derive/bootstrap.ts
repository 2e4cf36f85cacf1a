// The median of a sample with a bootstrap 95 % interval: resampled with replacement (a fixed-seed
// generator, so the same samples always give the same interval), the 2.5th and 97.5th percentiles of
// the resampled medians. Used where a figure is stated with its uncertainty (the observing proxy's
// added latency per round trip). More samples narrow the interval. Pure.

export interface MedianInterval {
  median: number;
  low: number;
  high: number;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median and its bootstrap 95 % interval over `resamples` resamples (NaN for no values). */
export function bootstrapMedian(values: readonly number[], resamples = 1000, seed = 1): MedianInterval {
  if (values.length === 0) return { median: NaN, low: NaN, high: NaN };
  let state = seed >>> 0 || 1;
  // xorshift32: small, fast, and the same everywhere.
  const random = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
  const medians = new Float64Array(resamples);
  const sample = new Float64Array(values.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)]!;
    sample.sort();
    const mid = sample.length >> 1;
    medians[r] = sample.length % 2 ? sample[mid]! : (sample[mid - 1]! + sample[mid]!) / 2;
  }
  medians.sort();
  const at = (q: number) => medians[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))]!;
  return { median: median(values), low: at(0.025), high: at(0.975) };
}
