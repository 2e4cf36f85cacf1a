// A duration in words for messages: "850 µs", "12.4 ms", "4.2 s", "3.5 min", "2.1 h", "11.6 days".
// Two significant figures below ten, three below a hundred, whole numbers above.

/** `us`: microseconds. */
export function durationText(us: number): string {
  const units: [number, string][] = [[86_400e6, ' days'], [3_600e6, ' h'], [60e6, ' min'], [1e6, ' s'], [1e3, ' ms']];
  for (const [size, unit] of units) {
    if (us >= size) {
      const value = us / size;
      return `${value >= 100 ? Math.round(value) : Number(value.toPrecision(value >= 10 ? 3 : 2))}${unit}`;
    }
  }
  return `${Math.round(us)} µs`;
}
