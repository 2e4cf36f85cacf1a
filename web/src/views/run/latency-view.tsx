// Per-command latency of one run, as redis-benchmark reports it: avg, min, p50, p95, p99 and max, each
// its median [min–max] over the repeats ("n too small" where the run has too few commands for a
// percentile), and a small histogram of the shown repeat's latencies in fixed log-spaced buckets, on
// the x axis every panel of a comparison shares (domain). Measured at the client socket: from the write
// that carried a command to the read that completed its reply.
// Test hooks: data-testid=latency; data-metric=avg|min|p50|p95|p99|max with data-value = the median
// (data-min, data-max; data-too-small when n is too small); data-testid=latency-histogram, each bar
// data-count.
import { useMemo, useRef } from 'react';
import { latencyHistogram, latencyStats } from '../../../../trace/derive/latency-stats.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { latencyFigures, TOO_SMALL_TEXT, tooFewNote } from '../../format/latency-text.ts';
import { formatCount, formatUs, plural } from '../../format/number-format.ts';
import { HISTOGRAM_HEIGHT, latencyHistogramLayout, type HistogramDomain } from '../../layout/latency-histogram-layout.ts';
import type { RunGroup } from '../../model/run-groups.ts';
import { useElementWidth } from './use-element-width.ts';
import './latency-view.css';

interface Props {
  group: RunGroup;
  shown: TraceDocument;
  /** The bucket range shared by the panels side by side. */
  domain: HistogramDomain;
}

export function LatencyView({ group, shown, domain }: Props) {
  // Sorting 100,000 latencies per repeat is not for every re-render.
  const figures = useMemo(() => latencyFigures(group.repeats.map(latencyStats)), [group.repeats]);
  const note = tooFewNote(figures, group.repeats[0]?.commands.length ?? 0);
  const buckets = useMemo(() => latencyHistogram(shown), [shown]);
  const hostRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(hostRef, 600);
  const layout = latencyHistogramLayout(buckets, domain, width);
  return (
    <section className="latency" data-testid="latency" aria-label={`Latency per command of the ${shown.run.mode} run`}>
      <h3 className="latency-head">
        Latency per command <span className="source">client socket: the write that carried it → the read that completed its reply</span>
      </h3>
      <dl className="latency-figures">
        {figures.map((f) => (
          <div key={f.id} className="latency-figure" title={f.tooSmall ?? undefined}>
            <dt>{f.label}</dt>
            <dd>
              <span
                className={f.tooSmall ? 'metric-value too-small' : 'metric-value'}
                data-metric={f.id}
                data-value={f.spread.median}
                data-min={f.spread.min}
                data-max={f.spread.max}
                data-too-small={f.tooSmall ? 'true' : undefined}
              >
                {f.tooSmall ? TOO_SMALL_TEXT : f.median}
              </span>
              {!f.tooSmall && f.range && <span className="metric-range">{f.range}</span>}
            </dd>
          </div>
        ))}
      </dl>
      {note && (
        <p className="latency-note" data-testid="latency-note">
          {note}
        </p>
      )}
      <figure className="latency-histogram" data-testid="latency-histogram">
        <figcaption>
          {group.repeats.length > 1 ? `Repeat ${shown.run.repeat + 1}’s` : 'The'} {plural(shown.commands.length, 'command')} by latency
          <span className="latency-histogram-note"> · log-spaced buckets, 10 per decade · same axis in every panel</span>
        </figcaption>
        <div className="latency-histogram-host" ref={hostRef}>
          <svg width={layout.width} height={HISTOGRAM_HEIGHT} role="img" aria-label={`Latency histogram of the ${shown.run.mode} run`}>
            <line className="latency-base" x1={layout.left} x2={layout.right} y1={layout.baseline} y2={layout.baseline} />
            <text className="latency-count-label" x={layout.left - 5} y={8} dy="0.32em">
              {formatCount(layout.maxCount)}
            </text>
            <text className="latency-count-label" x={layout.left - 5} y={layout.baseline} dy="0.32em">
              0
            </text>
            {layout.bars.map((bar) => (
              <rect key={bar.x} className="latency-bar" data-count={bar.count} x={bar.x} y={bar.y} width={bar.width} height={bar.height}>
                <title>{`${plural(bar.count, 'command')} at ${formatUs(bar.fromUs)}–${formatUs(bar.toUs)}`}</title>
              </rect>
            ))}
            {layout.ticks.map((t) => (
              <g key={t.label} className="latency-tick">
                <line x1={t.x} x2={t.x} y1={layout.baseline} y2={layout.baseline + 3} />
                <text x={t.x} y={layout.baseline + 13}>
                  {t.label}
                </text>
              </g>
            ))}
          </svg>
        </div>
      </figure>
    </section>
  );
}
