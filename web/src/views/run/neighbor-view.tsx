// The other clients beside one run, under its memory chart: the neighbour
// client's latency over time with the run's span marked, its p99 during the run against before it, the
// verdict on how many of its commands Redis ran inside the run (with its source, MONITOR), and the
// held-connection line (a PING behind the run on its own connection against one on a second
// connection). Nothing for a run with neither. React draws the small SVG from a pure layout
// (layout/neighbor-chart-layout.ts), as the latency histogram does; it has its own time axis.
// Test hooks: data-testid=neighbor on the section; neighbor-inside (data-value = the count, empty
// without MONITOR); neighbor-latency (data-p99-during, data-p99-before: µs, empty when too few);
// neighbor-chart on the <svg>, neighbor-max-line / neighbor-avg-line (data-points), neighbor-run-span;
// held-connection (data-same-us, data-other-us).
import { useMemo, useRef } from 'react';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { bucketText, heldConnectionText, neighborTexts } from '../../format/neighbor-text.ts';
import { neighborChartLayout } from '../../layout/neighbor-chart-layout.ts';
import { neighborSeries } from '../../model/neighbor-series.ts';
import { useElementWidth } from './use-element-width.ts';
import './neighbor-view.css';

export function NeighborView({ doc }: { doc: TraceDocument }) {
  const texts = useMemo(() => neighborTexts(doc), [doc]);
  const held = useMemo(() => heldConnectionText(doc), [doc]);
  if (!texts && !held) return null;
  return (
    <section className="neighbor" data-testid="neighbor" aria-label="Other clients beside the run">
      <h3 className="neighbor-head">Other clients</h3>
      {texts && (
        <>
          <p className="neighbor-verdict" data-testid="neighbor-inside" data-value={texts.insideCount ?? ''}>
            <strong>{texts.inside}</strong> <span className="source">{texts.insideSource}</span>
          </p>
          <p className="neighbor-latency" data-testid="neighbor-latency" data-p99-during={texts.p99DuringUs ?? ''} data-p99-before={texts.p99BeforeUs ?? ''}>
            Neighbour’s latency: {texts.latency} <span className="source">{texts.latencySource}</span>
          </p>
          <NeighborChart doc={doc} />
        </>
      )}
      {held && (
        <p className="held-connection" data-testid="held-connection" data-same-us={held.sameWaitUs} data-other-us={held.otherWaitUs}>
          {held.text} <span className="source">PING reply times, from the moment both were issued</span>
        </p>
      )}
    </section>
  );
}

function NeighborChart({ doc }: { doc: TraceDocument }) {
  const hostRef = useRef<HTMLDivElement>(null);
  const width = useElementWidth(hostRef, 600);
  const series = useMemo(() => neighborSeries(doc, width / 2), [doc, width]);
  const layout = series && neighborChartLayout(series, width);
  return (
    <div className="neighbor-chart-host" ref={hostRef}>
      {layout && (
        <svg data-testid="neighbor-chart" width={layout.width} height={layout.height} role="img" aria-label="The neighbour's latency over time; the shaded band is the run">
          <rect data-testid="neighbor-run-span" className="neighbor-run-span" x={layout.run.x} y={layout.plot.top} width={layout.run.width} height={layout.plot.bottom - layout.plot.top}>
            <title>the run: t0 to its last reply</title>
          </rect>
          {layout.yTicks.map((t) => (
            <g key={t.label} className="tick">
              <line x1={layout.plot.left} x2={layout.plot.right} y1={t.y} y2={t.y} />
              <text x={layout.plot.left - 4} y={t.y + 3} textAnchor="end" fontSize={10}>{t.label}</text>
            </g>
          ))}
          {layout.xTicks.map((t) => (
            <text key={t.label} className="x-tick" x={t.x} y={layout.height - 4} textAnchor="middle" fontSize={10}>{t.label}</text>
          ))}
          <path data-testid="neighbor-max-line" data-points={layout.points} d={layout.maxPath} className="neighbor-max-line">
            <title>slowest command in each bucket</title>
          </path>
          <path data-testid="neighbor-avg-line" data-points={layout.points} d={layout.avgPath} className="neighbor-avg-line">
            <title>average of each bucket</title>
          </path>
        </svg>
      )}
      <span className="neighbor-chart-key">
        <span className="avg">average</span> · <span className="max">slowest</span> {bucketText(series?.commands, series?.buckets.length ?? 0)} · shaded: the run · log latency scale
      </span>
    </div>
  );
}
