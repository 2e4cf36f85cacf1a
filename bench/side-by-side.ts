// Measures variants side by side. Each round runs every variant once, in an order that rotates from
// round to round, so that a slow spell of this shared 2-core machine falls on all of them alike; a
// ratio is taken within each round (this variant ÷ that one, same round) and reported as the median
// and range of those per-round ratios, never as one lucky run.
import { spreadOf, type Spread } from '../trace/format/sweep-format.ts';

export interface Variant {
  name: string;
  /** One measurement (a time in ms, or a rate): whatever the caller compares. */
  measure(): Promise<number>;
}

export type Samples = Record<string, number[]>;

export async function sideBySide(variants: readonly Variant[], rounds: number, warmupRounds = 1): Promise<Samples> {
  const samples: Samples = Object.fromEntries(variants.map((v) => [v.name, []]));
  for (let round = -warmupRounds; round < rounds; round++) {
    const shift = ((round % variants.length) + variants.length) % variants.length;
    for (let k = 0; k < variants.length; k++) {
      const variant = variants[(k + shift) % variants.length]!;
      const value = await variant.measure();
      if (round >= 0) samples[variant.name]!.push(value);
    }
  }
  return samples;
}

/** Per-round ratios a[i] ÷ b[i], as median [min–max]. */
export function roundRatios(a: readonly number[], b: readonly number[]): Spread {
  if (a.length !== b.length || a.length === 0) throw new Error('roundRatios needs two equally long, non-empty sample lists');
  return spreadOf(a.map((value, i) => value / b[i]!));
}

export { spreadOf, type Spread };
