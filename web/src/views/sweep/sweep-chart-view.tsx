// Paints the sweep chart from sweep-layout's draw lists: throughput against pipeline depth (our
// median dots with min–max whiskers and a line through the medians; redis-benchmark's beside them;
// the linear and docs' 10× guides), and I/O per command beneath on the same depth axis. The width
// comes from a ResizeObserver; the chart changes only when the points or the width change, so React
// renders its few hundred SVG elements. Marks carry their measured numbers in data-* attributes.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import type { Engine } from '../../../../trace/format/run-request.ts';
import { formatRate, formatRatio } from '../../format/number-format.ts';
import { SWEEP_RATE_SOURCE, formatDepth } from '../../format/sweep-text.ts';
import { sweepLayout, type MarkDraw, type PanelLayout, type SeriesDraw, type SeriesKey } from '../../layout/sweep-layout.ts';
import type { SweepSeries } from '../../model/sweep-series.ts';
import type { YScaleChoice } from '../../state/sweep-form-state.ts';
import { useSidewaysScroll } from '../app/use-sideways-scroll.ts';

interface Props {
  series: SweepSeries;
  engine: Engine;
  yScale: YScaleChoice;
  onYScaleChange: (yScale: YScaleChoice) => void;
  /** 'live' while points still arrive. */
  state: 'live' | 'done' | 'stopped';
}

/** The depth axis's detail, in its title and, on a phone, under the chart. */
const DEPTH_DETAIL = 'commands per pipeline (log₂ scale)';

/** The I/O panel's keys, in its title and, on a phone, under the chart. */
const IO_KEYS = {
  serverReads: '● Redis read events: INFO total_reads_processed Δ ÷ commands',
  clientWrites: '■ client socket writes ÷ commands',
} as const;

export const REFERENCE_LABEL = 'redis-benchmark -c 1 -P d (Redis’s own C client)';

function useElementWidth<T extends HTMLElement>(): [RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(960);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth || 960);
    measure();
    if (typeof ResizeObserver !== 'function') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

const TEST_IDS: Record<SeriesKey, string> = {
  ours: 'sweep-point',
  reference: 'sweep-reference-point',
  serverReads: 'sweep-server-reads-point',
  clientWrites: 'sweep-client-writes-point',
};

function titleOf(key: SeriesKey, m: MarkDraw, engine: Engine): string {
  const runs = `${m.runs} run${m.runs === 1 ? '' : 's'}`;
  const spread = (f: (v: number) => string) => (m.runs > 1 ? `median ${f(m.median)} [${f(m.min)}–${f(m.max)}] of ${runs}` : f(m.median));
  const depth = `depth ${formatDepth(m.depth)}`;
  switch (key) {
    case 'ours':
      return `Pipescope · ${engine}, ${depth}\n${spread(formatRate)}\n${SWEEP_RATE_SOURCE}`;
    case 'reference':
      return `redis-benchmark -c 1 -P ${m.depth}\n${spread(formatRate)}\nas redis-benchmark --csv printed it`;
    case 'serverReads':
      return `Redis read events per command, ${depth}\n${spread(formatRatio)}\nINFO total_reads_processed Δ ÷ commands`;
    case 'clientWrites':
      return `Client socket writes per command, ${depth}\n${spread(formatRatio)}\nwrite() calls on the client socket ÷ commands`;
  }
}

function Mark({ seriesKey, mark, engine }: { seriesKey: SeriesKey; mark: MarkDraw; engine: Engine }) {
  const whisker = mark.yBottom - mark.yTop > 1;
  return (
    <g
      className="sweep-mark"
      data-testid={TEST_IDS[seriesKey]}
      data-depth={mark.depth}
      data-median={mark.median}
      data-min={mark.min}
      data-max={mark.max}
      data-runs={mark.runs}
    >
      <title>{titleOf(seriesKey, mark, engine)}</title>
      {whisker && (
        <>
          <line className="whisker" x1={mark.x} x2={mark.x} y1={mark.yTop} y2={mark.yBottom} />
          <line className="whisker-cap" x1={mark.x - 3} x2={mark.x + 3} y1={mark.yTop} y2={mark.yTop} />
          <line className="whisker-cap" x1={mark.x - 3} x2={mark.x + 3} y1={mark.yBottom} y2={mark.yBottom} />
        </>
      )}
      {seriesKey === 'reference' ? (
        <rect className="dot" x={mark.x - 4} y={mark.y - 4} width={8} height={8} transform={`rotate(45 ${mark.x} ${mark.y})`} />
      ) : seriesKey === 'clientWrites' ? (
        <rect className="dot" x={mark.x - 3.5} y={mark.y - 3.5} width={7} height={7} />
      ) : (
        <circle className="dot" cx={mark.x} cy={mark.y} r={4} />
      )}
      <circle className="hit" cx={mark.x} cy={mark.y} r={9} />
    </g>
  );
}

function Series({ series, engine }: { series: SeriesDraw; engine: Engine }) {
  return (
    <g className={`sweep-series ${series.key}`}>
      {series.path && <path className="median-line" d={series.path} />}
      {series.marks.map((m) => (
        <Mark key={m.depth} seriesKey={series.key} mark={m} engine={engine} />
      ))}
    </g>
  );
}

function Panel({ panel, left, right, clipId, children }: { panel: PanelLayout; left: number; right: number; clipId: string; children?: ReactNode }) {
  return (
    <g>
      <clipPath id={clipId}>
        <rect x={left} y={panel.top} width={right - left} height={panel.bottom - panel.top} />
      </clipPath>
      <g className="sweep-grid">
        {panel.yTicks.map((t) => (
          <line key={t.at} className={t.major ? 'major' : 'minor'} x1={left} x2={right} y1={t.at} y2={t.at} />
        ))}
      </g>
      <g className="sweep-axis y">
        {panel.yTicks
          .filter((t) => t.major)
          .map((t) => (
            <text key={t.at} x={left - 8} y={t.at} dy="0.32em">
              {t.label}
            </text>
          ))}
      </g>
      <rect className="plot-frame" x={left} y={panel.top} width={right - left} height={panel.bottom - panel.top} />
      <g clipPath={`url(#${clipId})`}>
        {panel.guides.map((g) => (
          <path key={g.key} className={`sweep-guide ${g.key}`} d={g.path} />
        ))}
      </g>
      {panel.guides.map((g) => (
        <text
          key={g.key}
          className={`guide-label ${g.key}`}
          x={g.labelX}
          y={g.labelY}
          dy={g.side === 'above' ? '-0.45em' : '1.1em'}
          textAnchor={g.anchor}
          transform={g.angle ? `rotate(${g.angle.toFixed(2)} ${g.labelX.toFixed(1)} ${g.labelY.toFixed(1)})` : undefined}
        >
          {g.label}
        </text>
      ))}
      {children}
    </g>
  );
}

export function SweepChartView({ series, engine, yScale, onYScaleChange, state }: Props) {
  const [host, width] = useElementWidth<HTMLDivElement>();
  const layout = useMemo(() => sweepLayout(series, width, yScale), [series, width, yScale]);
  const [scroller, scrollProps] = useSidewaysScroll('The sweep chart, scrolls sideways');
  const hostRef = useCallback((element: HTMLDivElement | null) => {
    host.current = element;
    scroller(element);
  }, [host, scroller]);
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const { throughput, io, plotLeft, plotRight } = layout;
  const noCounts = series.serverReads.length === 0 && series.clientWrites.length === 0;
  const throughputDetail = `${yScale === 'log' ? 'log scale' : 'linear scale'} · Pipescope: ${SWEEP_RATE_SOURCE} · redis-benchmark: as it prints (--csv)`;
  const xTickLabels = (y: number) =>
    layout.xTicks.map((t) => (
      <text key={t.at} x={t.at} y={y}>
        {t.label}
      </text>
    ));
  return (
    <figure className="chart-card sweep-chart" data-testid="sweep-chart" data-state={state} data-y-scale={yScale}>
      <figcaption className="sweep-chart-head">
        <div className="sweep-legend">
          <span className="legend-item ours">
            <svg width="26" height="12" aria-hidden="true"><line x1="1" x2="25" y1="6" y2="6" /><circle cx="13" cy="6" r="4" /></svg>
            Pipescope · {engine === 'raw' ? 'raw socket' : engine} — median, whisker min–max
          </span>
          {series.reference.length > 0 && (
            <span className="legend-item reference">
              <svg width="26" height="12" aria-hidden="true"><line x1="1" x2="25" y1="6" y2="6" /><rect x="9" y="2" width="8" height="8" transform="rotate(45 13 6)" /></svg>
              {REFERENCE_LABEL}
            </span>
          )}
          <span className="legend-item guide">
            <svg width="26" height="12" aria-hidden="true"><line className="sweep-guide linear" x1="1" x2="25" y1="10" y2="2" /></svg>
            linear scaling
          </span>
        </div>
        <button
          type="button"
          className="segmented"
          data-testid="sweep-y-scale"
          role="switch"
          aria-checked={yScale === 'log'}
          aria-label="Logarithmic throughput axis"
          onClick={() => onYScaleChange(yScale === 'log' ? 'linear' : 'log')}
          title="Log: equal ratios look equal, linear growth is a 45° line. Linear: the plateau as the docs draw it."
        >
          <span className={yScale === 'log' ? 'on' : ''}>log ops/s</span>
          <span className={yScale === 'linear' ? 'on' : ''}>linear</span>
        </button>
      </figcaption>
      {/* Narrower than the chart's least width (sweep-layout.ts), it scrolls in here (scroll-x, views/app/controls.css). */}
      <div className="sweep-chart-host scroll-x" ref={hostRef} {...scrollProps}>
        <svg width={layout.width} height={layout.height} role="img" aria-label="Throughput and I/O per command against pipeline depth">
          {layout.activeX !== null && (
            <rect className="active-depth" x={layout.activeX - 10} width={20} y={throughput.top} height={io.bottom - throughput.top} data-testid="sweep-active-depth" />
          )}
          <g className="sweep-grid">
            {layout.xTicks.map((t) => (
              <g key={t.at}>
                <line x1={t.at} x2={t.at} y1={throughput.top} y2={throughput.bottom} />
                <line x1={t.at} x2={t.at} y1={io.top} y2={io.bottom} />
              </g>
            ))}
          </g>
          <Panel panel={throughput} left={plotLeft} right={plotRight} clipId={`${id}-throughput`}>
            {throughput.series.map((s) => (
              <Series key={s.key} series={s} engine={engine} />
            ))}
          </Panel>
          <text className="sweep-axis-title" x={plotLeft} y={throughput.top - 2} dy="-0.35em">
            <tspan className="strong">Throughput, ops/s</tspan>
            <tspan className="sweep-axis-detail" dx="8">{throughputDetail}</tspan>
          </text>
          <g className="sweep-axis x">{xTickLabels(throughput.bottom + 15)}</g>
          <Panel panel={io} left={plotLeft} right={plotRight} clipId={`${id}-io`}>
            {io.series.map((s) => (
              <Series key={s.key} series={s} engine={engine} />
            ))}
            {noCounts && (
              <text className="panel-note" x={plotRight - 12} y={io.top + 22} textAnchor="end">
                {state === 'live' ? 'The counts arrive with the finished sweep.' : 'No counts: the sweep stopped before its document was written.'}
              </text>
            )}
          </Panel>
          <text className="sweep-axis-title" x={plotLeft} y={io.top - 2} dy="-0.35em">
            <tspan className="strong">I/O per command</tspan>
            <tspan className="sweep-axis-detail" dx="8">log scale ·</tspan>
            <tspan className="sweep-axis-detail key server-reads" dx="4">{IO_KEYS.serverReads}</tspan>
            <tspan className="sweep-axis-detail key client-writes" dx="10">{IO_KEYS.clientWrites}</tspan>
          </text>
          <g className="sweep-axis x">{xTickLabels(io.bottom + 15)}</g>
          <text className="sweep-axis-title x-title" x={(plotLeft + plotRight) / 2} y={io.bottom + 38} textAnchor="middle">
            pipeline depth<tspan className="sweep-axis-detail"> — {DEPTH_DETAIL}</tspan>
          </text>
        </svg>
      </div>
      {/* A phone: the axis titles' details, too long for a line over a narrow plot, under the chart instead. */}
      <ul className="sweep-axis-notes" aria-hidden="true">
        <li>
          <b>Throughput:</b> {throughputDetail}
        </li>
        <li>
          <b>I/O per command:</b> log scale · <span className="key server-reads">{IO_KEYS.serverReads}</span> ·{' '}
          <span className="key client-writes">{IO_KEYS.clientWrites}</span>
        </li>
        <li>
          <b>Pipeline depth:</b> {DEPTH_DETAIL}
        </li>
      </ul>
    </figure>
  );
}
