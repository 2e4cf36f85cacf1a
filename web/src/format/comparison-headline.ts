// The one-line verdict above two comparable runs (same command and N, one sequential, one pipeline),
// computed from their measured totals. Returns null when the runs do not compare like for like.
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { formatCount, formatUs } from './number-format.ts';

export function comparisonHeadline(traces: readonly TraceDocument[]): string | null {
  const seq = traces.find((d) => d.run.mode === 'sequential');
  const pipe = traces.find((d) => d.run.mode === 'pipeline');
  if (!seq || !pipe || seq.run.command !== pipe.run.command || seq.run.n !== pipe.run.n || seq.run.valueBytes !== pipe.run.valueBytes) return null;
  const a = seq.totals.durationUs;
  const b = pipe.totals.durationUs;
  if (a <= 0 || b <= 0) return null;
  const ratio = a / b;
  const what = `${formatCount(seq.run.n)} × ${seq.run.command}`;
  const factor = ratio >= 10 ? Math.round(ratio).toString() : ratio.toFixed(1);
  if (ratio >= 1.05) return `${what}: the pipeline took ${formatUs(b)}, sequential ${formatUs(a)} — ${factor}× faster (measured at the client socket).`;
  if (ratio <= 1 / 1.05) {
    const inverse = 1 / ratio;
    return `${what}: sequential took ${formatUs(a)}, the pipeline ${formatUs(b)} — this time sequential was ${inverse >= 10 ? Math.round(inverse) : inverse.toFixed(1)}× faster (measured at the client socket).`;
  }
  return `${what}: sequential ${formatUs(a)}, pipeline ${formatUs(b)} — about the same (measured at the client socket).`;
}
