// The words of a paired verdict (paired-verdict.ts), shared by every place that prints one: the web's
// headlines, compare table, gallery, tour and sweep, the CLI's summary and the bench. One wording, so a
// reader meets the same sentence for the same rule everywhere: the ratio with its 95 % interval, how many
// pairs the faster side won, and for "until certain" where the request stopped. Pure.
import { MIN_PAIRS_FOR_INTERVAL, UNTIL_CERTAIN_CHECKPOINTS, UNTIL_CERTAIN_LIMIT, isCertain, type PairedVerdict } from './paired-verdict.ts';

/** "1.27", "2.6", "14": two decimals below 2, one below 10, whole from 10 (a factor, no unit). */
export function factorDigits(ratio: number): string {
  if (!Number.isFinite(ratio)) return '—';
  if (ratio >= 9.95) return Math.round(ratio).toLocaleString('en-US');
  return ratio < 1.995 ? ratio.toFixed(2) : ratio.toFixed(1);
}

/** The verdict turned so that the factor reads ≥ 1: how many times faster the faster side (by the estimate) was. */
export function fasterFactor(v: PairedVerdict): { factor: number; lo: number | null; hi: number | null; bFaster: boolean } {
  const bFaster = !(v.ratio < 1); // a ÷ b ≥ 1: b took less time
  const interval = v.interval;
  if (bFaster) return { factor: v.ratio, lo: interval?.lo ?? null, hi: interval?.hi ?? null, bFaster };
  return { factor: 1 / v.ratio, lo: interval ? 1 / interval.hi : null, hi: interval ? 1 / interval.lo : null, bFaster };
}

/** "[95 % 1.9–3.4×]" for the faster side's factor; "" without an interval. */
export function intervalText(v: PairedVerdict): string {
  const f = fasterFactor(v);
  return f.lo === null || f.hi === null ? '' : `[95 % ${factorDigits(f.lo)}–${factorDigits(f.hi)}×]`;
}

/** "19 of 20 pairs". */
export const pairsText = (won: number, of: number): string => `${won} of ${of} pair${of === 1 ? '' : 's'}`;

/** How the verdict was read: "until certain: certain at the 10-pair check", "20 pairs", "one pair", … */
export function planText(v: PairedVerdict): string {
  if (v.plan === 'until-certain' && v.read >= UNTIL_CERTAIN_CHECKPOINTS[0]!) {
    if (isCertain(v)) return `until certain: certain at the ${v.read}-pair check`;
    return v.read >= UNTIL_CERTAIN_LIMIT ? `until certain: not certain by the limit of ${UNTIL_CERTAIN_LIMIT} pairs` : `until certain: not certain at the ${v.read}-pair check`;
  }
  return v.read === 1 ? 'one pair' : `${v.read} pairs`;
}

/**
 * The verdict as a clause, naming each side: "the pipeline 2.6× faster [95 % 1.9–3.4×], faster in 19 of
 * 20 pairs", "within noise: the 95 % interval of sequential ÷ the pipeline, 0.82–1.40×, includes 1 (20
 * pairs)", "too few pairs for a verdict (5 pairs; a 95 % interval needs at least 6)". `a` and `b` name the sides as subjects ("sequential", "the pipeline").
 */
export function verdictClause(v: PairedVerdict, a: string, b: string): string {
  const f = fasterFactor(v);
  if (v.outcome === 'too-few') {
    return v.pairs === 0 ? 'no pairs to compare yet' : `too few pairs for a verdict (${v.pairs === 1 ? 'one pair' : `${v.pairs} pairs`}; a 95 % interval needs at least ${MIN_PAIRS_FOR_INTERVAL})`;
  }
  if (v.outcome === 'within-noise') {
    return `within noise: the 95 % interval of ${f.bFaster ? `${a} ÷ ${b}` : `${b} ÷ ${a}`}, ${factorDigits(f.lo!)}–${factorDigits(f.hi!)}×, includes 1 (${planText(v)})`;
  }
  const faster = f.bFaster ? b : a;
  const how = v.plan === 'until-certain' ? ` (${planText(v)})` : '';
  return `${faster} ${factorDigits(f.factor)}× faster ${intervalText(v)}, faster in ${pairsText(v.wins, v.read)}${how}`;
}

/**
 * The verdict from A's side, for a table cell: "9.9× slower [95 % 9.3–10×], 6 of 6 pairs", "1.2× faster
 * [95 % 1.1–1.3×], 19 of 20 pairs", "within noise [95 % 0.91–1.30×]", "too few pairs (1)".
 */
export function versusText(v: PairedVerdict): string {
  if (v.outcome === 'too-few') return `too few pairs (${v.pairs})`;
  if (v.outcome === 'within-noise') return `within noise [95 % ${factorDigits(v.interval!.lo)}–${factorDigits(v.interval!.hi)}×]`;
  const f = fasterFactor(v);
  return `${factorDigits(f.factor)}× ${f.bFaster ? 'slower' : 'faster'} ${intervalText(v)}, ${pairsText(v.wins, v.read)}`;
}
