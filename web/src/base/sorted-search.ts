// Binary search over ascending time columns: which events fall inside the visible time range.
// Both functions return an insertion index in 0..length; callers slice [lowerBound(a), upperBound(b)).

type Sorted = ArrayLike<number>;

/** First index whose value is >= x. */
export function lowerBound(sorted: Sorted, x: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index whose value is > x. */
export function upperBound(sorted: Sorted, x: number, from = 0, to = sorted.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index range [start, end) of the values in the closed interval [fromUs, toUs]. */
export function visibleRange(sorted: Sorted, fromUs: number, toUs: number): { start: number; end: number } {
  const start = lowerBound(sorted, fromUs);
  return { start, end: Math.max(start, upperBound(sorted, toUs, start)) };
}
