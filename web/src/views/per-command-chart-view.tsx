// Bar chart of socket and Redis I/O per command, one group per figure and one bar per run, so the
// "one write per command" vs "one write per batch" difference reads at a glance. d3 scales compute the
// geometry; React renders the few SVG elements (it changes only when the runs change).
import { scaleBand, scaleLinear } from 'd3';
import type { TraceDocument } from '../../../trace/trace-format.ts';
import { perCommandCounts, type PerCommandCounts } from '../../../trace/trace-stats.ts';
import { formatCount, formatRatio } from '../format/number-format.ts';

interface Figure {
  key: keyof PerCommandCounts;
  label: string;
  source: string;
  /** Requests travel in writes to Redis and are read by Redis; replies the other way. */
  direction: 'request' | 'reply';
}

const FIGURES: Figure[] = [
  { key: 'clientWrites', label: 'Client socket writes', source: 'client socket', direction: 'request' },
  { key: 'serverReads', label: 'Redis read events', source: 'Redis INFO stats', direction: 'request' },
  { key: 'serverWrites', label: 'Redis write events', source: 'Redis INFO stats', direction: 'reply' },
  { key: 'clientReads', label: 'Client socket reads', source: 'client socket', direction: 'reply' },
];

const WIDTH = 760;
const ROW = 26;
const LABEL_WIDTH = 250;
const VALUE_ROOM = 260;

export function PerCommandChartView({ traces }: { traces: readonly TraceDocument[] }) {
  if (traces.length === 0) return null;
  const runs = traces.map((doc) => ({ doc, counts: perCommandCounts(doc) }));
  const groupHeight = runs.length * ROW + 14;
  const height = FIGURES.length * groupHeight + 28;
  const max = Math.max(1, ...runs.flatMap((r) => FIGURES.map((f) => r.counts[f.key])));
  const x = scaleLinear().domain([0, max]).range([0, WIDTH - LABEL_WIDTH - VALUE_ROOM]);
  const y = scaleBand<number>().domain(runs.map((_, i) => i)).range([0, runs.length * ROW]).paddingInner(0.25);
  const shared = traces.some((d) => !d.counts.server.exclusive);
  return (
    <figure className="chart-card" data-testid="per-command-chart">
      <figcaption>
        <strong>I/O per command</strong> — socket calls and Redis events divided by the number of commands (1 = one per command)
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label="Socket writes, socket reads and Redis read and write events per command, per run">
        <g transform="translate(0,8)">
          {FIGURES.map((figure, fi) => (
            <g key={figure.key} transform={`translate(0,${fi * groupHeight})`}>
              <text className="chart-label" x={0} y={runs.length * ROW * 0.5 - 4}>
                {figure.label}
              </text>
              <text className="chart-source" x={0} y={runs.length * ROW * 0.5 + 10}>
                {figure.source}
                {shared && figure.source.startsWith('Redis') ? ' · includes other clients' : ''}
              </text>
              {runs.map((r, ri) => {
                const value = r.counts[figure.key];
                const total = value * r.doc.run.n;
                const barY = y(ri) ?? 0;
                const w = Math.max(value > 0 ? 1.5 : 0, x(value));
                return (
                  <g key={ri} transform={`translate(${LABEL_WIDTH},${barY})`}>
                    <rect className={`bar ${figure.direction} ${r.doc.run.mode}`} width={w} height={y.bandwidth()} rx={2} />
                    <text className="bar-value" x={w + 6} y={y.bandwidth() / 2} dy="0.32em">
                      {formatRatio(value)}
                      <tspan className="bar-meta">
                        {'  '}
                        {r.doc.run.mode} · {formatCount(total)} ÷ {formatCount(r.doc.run.n)}
                      </tspan>
                    </text>
                  </g>
                );
              })}
            </g>
          ))}
          <line className="chart-axis" x1={LABEL_WIDTH} x2={LABEL_WIDTH} y1={-4} y2={FIGURES.length * groupHeight - 10} />
        </g>
      </svg>
    </figure>
  );
}
