// Bar chart of socket and Redis I/O per operation, one group per figure and one bar per run, so the
// "one write per command" vs "one write per batch" difference reads at a glance; server-traced runs
// with strace add Redis's kernel read()/write() calls. Divided by the operations the run asked for
// (run.operations), not by the commands on the wire: one MSET of 10 SETs is one command doing 10
// operations, and must not look 10× worse than a pipeline of the same 10 SETs. d3 scales compute the
// geometry; React renders the few SVG elements (it changes only when the runs change).
import { scaleBand, scaleLinear } from 'd3';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { formatCount, formatRatio, plural } from '../../format/number-format.ts';
import { modePhrase } from '../../format/run-label.ts';
import { kernelCounts } from '../../model/kernel-counts.ts';
import { useSidewaysScroll } from '../app/use-sideways-scroll.ts';
import './per-command-chart-view.css';

interface Figure {
  key: string;
  label: string;
  source: string;
  /** Requests travel in writes to Redis and are read by Redis; replies the other way. */
  direction: 'request' | 'reply';
  /** Total over the run, or null when the run did not measure it. */
  total: (doc: TraceDocument) => number | null;
}

const FIGURES: Figure[] = [
  { key: 'clientWrites', label: 'Client socket writes', source: 'client socket', direction: 'request', total: (d) => d.counts.client.writes },
  { key: 'serverReads', label: 'Redis read events', source: 'Redis INFO stats', direction: 'request', total: (d) => (d.run.observed ? null : d.counts.server.reads) },
  { key: 'kernelReads', label: 'Redis read() calls', source: 'kernel (strace)', direction: 'request', total: (d) => kernelCounts(d)?.reads ?? null },
  { key: 'kernelWrites', label: 'Redis write() calls', source: 'kernel (strace) · write + writev', direction: 'reply', total: (d) => kernelCounts(d)?.writes ?? null },
  { key: 'serverWrites', label: 'Redis write events', source: 'Redis INFO stats', direction: 'reply', total: (d) => (d.run.observed ? null : d.counts.server.writes) },
  { key: 'clientReads', label: 'Client socket reads', source: 'client socket', direction: 'reply', total: (d) => d.counts.client.reads },
];

const WIDTH = 760;
const ROW = 26;
const LABEL_WIDTH = 250;
const VALUE_ROOM = 260;

export function PerCommandChartView({ traces }: { traces: readonly TraceDocument[] }) {
  const [scroller, scrollProps] = useSidewaysScroll('I/O per operation, a chart that scrolls sideways');
  if (traces.length === 0) return null;
  // Kernel rows only when some run on screen has them; INFO rows not for observed connections alone (INFO cannot tell them apart).
  const figures = FIGURES.filter((f) => (!f.key.startsWith('kernel') || traces.some((d) => kernelCounts(d) !== null)) && (!f.key.startsWith('server') || traces.some((d) => !d.run.observed)));
  const runs = traces.map((doc) => ({ doc, values: figures.map((f) => f.total(doc)) }));
  const groupHeight = runs.length * ROW + 14;
  const height = figures.length * groupHeight + 28;
  const max = Math.max(1, ...runs.flatMap((r) => r.values.map((v) => (v === null ? 0 : v / r.doc.run.operations))));
  const x = scaleLinear().domain([0, max]).range([0, WIDTH - LABEL_WIDTH - VALUE_ROOM]);
  const y = scaleBand<number>().domain(runs.map((_, i) => i)).range([0, runs.length * ROW]).paddingInner(0.25);
  const shared = traces.some((d) => !d.counts.server.exclusive);
  return (
    <figure className="chart-card" data-testid="per-command-chart">
      <figcaption>
        <strong>I/O per operation</strong> — socket calls and Redis events divided by the operations each run did, not its commands on the wire
        (1 = one per operation; one MSET of 10 SETs counts 10)
      </figcaption>
      {/* On a phone the chart keeps a readable width and scrolls in here (scroll-x, views/app/controls.css). */}
      <div className="scroll-x per-command-scroll" ref={scroller} {...scrollProps}>
        <svg viewBox={`0 0 ${WIDTH} ${height}`} width="100%" role="img" aria-label="Socket writes, socket reads and Redis read and write events per operation, per run">
          <g transform="translate(0,8)">
            {figures.map((figure, fi) => (
              <g key={figure.key} transform={`translate(0,${fi * groupHeight})`}>
                <text className="chart-label" x={0} y={runs.length * ROW * 0.5 - 4}>
                  {figure.label}
                </text>
                <text className="chart-source" x={0} y={runs.length * ROW * 0.5 + 10}>
                  {figure.source}
                  {shared && figure.source.startsWith('Redis') ? ' · includes other clients' : ''}
                </text>
                {runs.map((r, ri) => {
                  const total = r.values[fi]!;
                  const barY = y(ri) ?? 0;
                  if (total === null) {
                    return (
                      <text key={ri} className="bar-meta" x={LABEL_WIDTH + 6} y={barY + y.bandwidth() / 2} dy="0.32em">
                        — {modePhrase(r.doc.run.mode, r.doc.run.chunk)}: not traced
                      </text>
                    );
                  }
                  const value = total / r.doc.run.operations;
                  const w = Math.max(value > 0 ? 1.5 : 0, x(value));
                  return (
                    <g key={ri} transform={`translate(${LABEL_WIDTH},${barY})`}>
                      <rect className={`bar ${figure.direction} ${r.doc.run.mode}`} width={w} height={y.bandwidth()} rx={2} />
                      <text className="bar-value" x={w + 6} y={y.bandwidth() / 2} dy="0.32em">
                        {formatRatio(value)}
                        <tspan className="bar-meta">
                          {'  '}
                          {modePhrase(r.doc.run.mode, r.doc.run.chunk)} · {formatCount(total)} ÷ {plural(r.doc.run.operations, 'operation')}
                        </tspan>
                      </text>
                    </g>
                  );
                })}
              </g>
            ))}
            <line className="chart-axis" x1={LABEL_WIDTH} x2={LABEL_WIDTH} y1={-4} y2={figures.length * groupHeight - 10} />
          </g>
        </svg>
      </div>
    </figure>
  );
}
