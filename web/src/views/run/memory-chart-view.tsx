// Memory during one run, under its sequence diagram, on the same time window (it follows the diagrams'
// zoom) and, when runs are compared, on one byte scale per plot with theirs (the highest peak among them): Redis's side — the run connection's tot-mem, qbuf and omem (CLIENT LIST) and the whole server's
// used_memory (INFO memory) — and the client process's heap and RSS (process.memoryUsage). Each series'
// peak is printed beside its key; stretches without samples are hatched and explained, never
// interpolated. Samples taken before t0 (each side's baseline) sit in a strip left of the time axis.
// Nothing for traces without memory samples.
// Test hooks: data-testid=memory-chart on the figure; memory-peak-server (tot-mem), memory-peak-server-qbuf,
// memory-peak-server-omem, memory-peak-server-used, memory-peak-client (heap), memory-peak-client-rss,
// each with data-value = the peak in bytes (empty when there were no samples); memory-plot on each plot's
// <svg>, memory-line on each series' path (data-series, data-points); memory-gaps on the gap note.
import { useLayoutEffect, useMemo, useRef } from 'react';
import type { Memory, TraceDocument } from '../../../../trace/format/trace-format.ts';
import { CLIENT_MEMORY_SOURCE_TEXT, SERVER_MEMORY_SOURCE_TEXT, memoryGapNote, memoryGaps } from '../../format/memory-text.ts';
import { formatBytes, formatUs } from '../../format/number-format.ts';
import type { TimeZoomSync } from '../../interaction/time-zoom-sync.ts';
import { memoryPlotGeometry } from '../../layout/memory-chart-layout.ts';
import { memorySeries, seriesPeak, type MemoryPlotId, type MemorySeriesKey } from '../../model/memory-series.ts';
import { frameScheduler } from '../../base/frame-scheduler.ts';
import { MemoryPlotController, type MemoryPlotData } from '../../paint/memory-plot-controller.ts';
import './memory-chart-view.css';

interface SeriesSpec {
  key: MemorySeriesKey;
  label: string;
  testId: string;
  /** What the figure is, for the key's tooltip. */
  what: string;
}

interface PanelSpec {
  id: MemoryPlotId;
  side: 'server' | 'client';
  title: string;
  /** The first series is the panel's main one: its peak is ringed on the plot. */
  series: SeriesSpec[];
  /** The last plot of each side carries the time axis. */
  axis: boolean;
}

const PANELS: PanelSpec[] = [
  {
    id: 'connection', side: 'server', title: 'the run’s connection (CLIENT LIST)', axis: false,
    series: [
      { key: 'totMem', label: 'tot-mem', testId: 'memory-peak-server', what: 'everything Redis holds for the run connection' },
      { key: 'qbuf', label: 'qbuf', testId: 'memory-peak-server-qbuf', what: 'query buffer: commands read, not yet executed' },
      { key: 'omem', label: 'omem', testId: 'memory-peak-server-omem', what: 'reply queue beyond the fixed 16 KiB buffer: replies not yet written' },
    ],
  },
  {
    id: 'used', side: 'server', title: 'the whole server, keys included (INFO memory)', axis: true,
    series: [{ key: 'usedMemory', label: 'used_memory', testId: 'memory-peak-server-used', what: 'Redis’s whole allocation' }],
  },
  {
    id: 'client', side: 'client', title: 'the Node process that ran the client', axis: true,
    series: [
      { key: 'heapUsed', label: 'heap used', testId: 'memory-peak-client', what: 'V8 heap in use (after a full GC at t0)' },
      { key: 'rss', label: 'RSS', testId: 'memory-peak-client-rss', what: 'resident set size of the whole process' },
    ],
  },
];

const SIDES = [
  { side: 'server', title: 'Redis', source: SERVER_MEMORY_SOURCE_TEXT },
  { side: 'client', title: 'Client', source: CLIENT_MEMORY_SOURCE_TEXT },
] as const;

interface Props {
  doc: TraceDocument;
  domainEndUs: number;
  zoomSync: TimeZoomSync;
  /** Runs compared side by side: each plot's byte scale tops at the highest peak among them (sharedMemoryTops). */
  sharedTops?: Readonly<Record<MemoryPlotId, number>>;
}

export function MemoryChartView({ doc, domainEndUs, zoomSync, sharedTops }: Props) {
  const memory = doc.memory;
  const endUs = doc.totals.durationUs;
  const panels = useMemo(() => (memory ? panelData(memory, endUs, sharedTops) : []), [memory, endUs, sharedTops]);
  const note = useMemo(() => (memory ? memoryGapNote(memory, endUs) : null), [memory, endUs]);
  const hasBaseline = memory !== null && [...memory.server.samples, ...memory.client.samples].some((s) => s.atUs < 0);
  if (!memory) return null;
  return (
    <figure className="memory-chart" data-testid="memory-chart" aria-label={`Memory during the ${doc.run.mode} run`}>
      <figcaption>
        <strong>Memory during the run</strong>
        <span className="memory-caption-note">
          sampled every {formatUs(memory.intervalMs * 1000)} · same time window as the diagram (zoom there)
          {hasBaseline && ' · grey strip left of 0: the baseline, sampled before t0 (not to scale)'}
        </span>
      </figcaption>
      {SIDES.map(({ side, title, source }) => (
        <section key={side} className={`memory-side ${side}`}>
          <h3 className="memory-side-head">
            {title} <span className="memory-source">{source}</span>
          </h3>
          {panels
            .filter((p) => p.spec.side === side)
            .map((p) => (
              <div key={p.spec.id} className="memory-panel">
                <div className="memory-panel-head">
                  <span className="memory-panel-title">{p.spec.title}</span>
                  <span className="memory-keys">
                    {p.spec.series.map((s, i) => (
                      <span key={s.key} className={`memory-key series-${s.key}`} title={s.what}>
                        <span className="swatch" aria-hidden="true" />
                        {s.label}{' '}
                        <span className="memory-peak" data-testid={s.testId} data-value={p.peaks[i]?.bytes ?? ''}>
                          {p.peaks[i] ? `peak ${formatBytes(p.peaks[i].bytes)}` : 'no samples'}
                        </span>
                      </span>
                    ))}
                  </span>
                </div>
                <MemoryPlotHost
                  data={p.data}
                  domainEndUs={domainEndUs}
                  zoomSync={zoomSync}
                  axis={p.spec.axis}
                  label={`${title} memory, ${p.spec.title}, over the run's time`}
                />
              </div>
            ))}
        </section>
      ))}
      {note && (
        <p className="memory-gaps" data-testid="memory-gaps">
          <span className="memory-gap-swatch" aria-hidden="true" />
          {note}
        </p>
      )}
    </figure>
  );
}

function panelData(memory: Memory, endUs: number, sharedTops: Readonly<Record<MemoryPlotId, number>> | undefined) {
  const gaps = memoryGaps(memory, endUs);
  return PANELS.map((spec) => {
    const series = spec.series.map((s) => memorySeries(memory, s.key));
    const data: MemoryPlotData = {
      series, gaps: spec.side === 'server' ? gaps.server : gaps.client, thresholdUs: gaps.thresholdUs,
      ...(sharedTops ? { sharedTopBytes: sharedTops[spec.id] } : {}),
    };
    return { spec, data, peaks: series.map(seriesPeak) };
  });
}

interface HostProps {
  data: MemoryPlotData;
  domainEndUs: number;
  zoomSync: TimeZoomSync;
  axis: boolean;
  label: string;
}

/** The React host of one plot: rendered once; the controller paints into it. */
function MemoryPlotHost({ data, domainEndUs, zoomSync, axis, label }: HostProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const controllerRef = useRef<MemoryPlotController | null>(null);

  useLayoutEffect(() => {
    const controller = new MemoryPlotController(hostRef.current!, zoomSync, frameScheduler, axis, label);
    controllerRef.current = controller;
    return () => {
      controller.destroy();
      controllerRef.current = null;
    };
    // The label only names the plot for screen readers; a new one is not worth a new controller.
  }, [zoomSync, axis]);

  useLayoutEffect(() => {
    controllerRef.current?.setData(data, domainEndUs);
  }, [data, domainEndUs]);

  return <div className="memory-plot-host" ref={hostRef} style={{ height: memoryPlotGeometry(0, axis).height }} />;
}
