// The depth-sweep view: form, progress and file controls, then the sweep on screen — the headline
// read off its medians, the untraced statement with what recorded it, the chart, the table and
// export. Holds the form and the y scale (told to the page store, whose link carries them while the
// view is shown: url/sweep-link.ts; a link navigated to under view=sweep sets them) and reads the sweep
// store; it stays mounted while hidden, so a sweep keeps its form and points when the user looks at
// single runs meanwhile.
import { useMemo, useState, useSyncExternalStore } from 'react';
import type { SweepStore } from '../../live/sweep-store.ts';
import { baselineOf, seriesOfDocument, seriesOfLive, sweepRows, type SweepSeries } from '../../model/sweep-series.ts';
import { authRelayNote, coarseReferenceNote, sweepHeadline, sweepProvenance } from '../../format/sweep-text.ts';
import { downloadSweep, downloadText } from '../../state/trace-files.ts';
import { sweepBenchmarkCsv, sweepCsvFileName } from '../../../../trace/export/sweep-csv.ts';
import { sweepLinkOf, type SweepLink } from '../../url/sweep-link.ts';
import type { PageUrl } from '../../url/page-url.ts';
import { useNavigation } from '../app/use-navigation.ts';
import type { Engine } from '../../../../trace/format/run-request.ts';
import type { SweepDocument } from '../../../../trace/format/sweep-format.ts';
import { SweepChartView } from './sweep-chart-view.tsx';
import { SweepFormView } from './sweep-form-view.tsx';
import { SweepProgressView } from './sweep-progress-view.tsx';
import { SweepTableView } from './sweep-table-view.tsx';
import './sweep-view.css';

interface Props {
  sweeps: SweepStore;
  /** Whether this view is the one on screen. */
  shown: boolean;
  /** The page's URL, which carries the form and the y scale. */
  url: PageUrl;
  /** Why a sweep cannot start now (no backend, Redis down, a run under way), or null. */
  blockedReason: string | null;
  onOpenFiles: (files: FileList | null) => void;
  /** The static site: no backend, so no sweep form; sweep files still open. */
  offline?: boolean;
}

interface Display {
  series: SweepSeries;
  state: 'live' | 'done' | 'stopped';
  engine: Engine;
  header: Pick<SweepDocument, 'sweep' | 'redis' | 'recorder'> | null;
  doc: SweepDocument | null;
  /** Whether redis-benchmark was asked for (and, for a document, ran). */
  reference: boolean;
}

const SOURCE_TEXT = { live: 'measured live', file: 'opened from a file', url: 'loaded from the URL', history: 'from history', stored: 'kept by this Pipescope' } as const;

export function SweepView({ sweeps, shown, url, blockedReason, onOpenFiles, offline = false }: Props) {
  const snap = useSyncExternalStore(sweeps.subscribe, sweeps.getSnapshot);
  const [params, setParamsState] = useState<SweepLink>(() => url.link.sweep);
  // A link navigated to under view=sweep sets the form and the y scale.
  useNavigation(url, (link) => link.view === 'sweep' && setParamsState(link.sweep));
  // Form and y scale → the link. A half-typed number keeps the last good value there.
  const setParams = (next: SweepLink) => {
    setParamsState(next);
    url.update({ sweep: sweepLinkOf(next, url.link.sweep) });
  };

  const { active, stopped, doc } = snap;
  const display = useMemo((): Display | null => {
    if (active) return { series: seriesOfLive(active, true), state: 'live', engine: active.spec.engine, header: active.header, doc: null, reference: active.spec.reference };
    if (stopped) return { series: seriesOfLive(stopped, false), state: 'stopped', engine: stopped.spec.engine, header: stopped.header, doc: null, reference: stopped.spec.reference };
    if (doc) return { series: seriesOfDocument(doc), state: 'done', engine: doc.sweep.engine, header: doc, doc, reference: doc.reference !== null };
    return null;
  }, [active, stopped, doc]);

  return (
    <div className="sweep-view" hidden={!shown} data-testid="sweep-view">
      <section className="controls">
        {!offline && (
          <>
            <SweepFormView
              form={params.form}
              onChange={(form) => setParams({ ...params, form })}
              onRun={(spec) => void sweeps.run(spec)}
              onCancel={() => sweeps.cancel()}
              running={active !== null}
              cancelling={active?.cancelling ?? false}
              blockedReason={blockedReason}
            />
            <SweepProgressView active={active} />
          </>
        )}
        <div className="file-controls">
          <label className="button">
            Open trace…
            <input
              className="visually-hidden"
              type="file"
              accept=".json,application/json"
              data-testid="sweep-import"
              onChange={(e) => {
                onOpenFiles(e.target.files);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      </section>
      {snap.message && (
        <p className={`message message-${snap.message.kind}`} role={snap.message.kind === 'error' ? 'alert' : 'status'} data-testid="sweep-message">
          {snap.message.text}
          <button type="button" className="link-button" onClick={() => sweeps.setMessage(null)} aria-label="Dismiss">
            ×
          </button>
        </p>
      )}
      {display ? <SweepResults display={display} source={snap.source} yScale={params.yScale} onYScale={(yScale) => setParams({ ...params, yScale })} /> : <SweepEmpty offline={offline} />}
    </div>
  );
}

function SweepResults({ display, source, yScale, onYScale }: { display: Display; source: keyof typeof SOURCE_TEXT | null; yScale: SweepLink['yScale']; onYScale: (y: SweepLink['yScale']) => void }) {
  const { series, header, doc } = display;
  const [first, ...rest] = sweepHeadline(series);
  const rows = useMemo(() => sweepRows(series), [series]);
  return (
    <section className="sweep-results" aria-label="Depth sweep">
      <div className="sweep-summary">
        <div className="sweep-headline" data-testid="sweep-headline">
          {first ? (
            <>
              <p className="headline">{first}</p>
              {rest.length > 0 && <p className="sweep-headline-more">{rest.join(' ')}</p>}
            </>
          ) : (
            <p className="headline muted">{display.state === 'live' ? 'Measuring… each point appears as its runs finish.' : 'Too few depths measured to compare.'}</p>
          )}
        </div>
        <div className="sweep-actions">
          {source && display.state === 'done' && <span className="source-tag">{SOURCE_TEXT[source]}</span>}
          {doc && (
            <button type="button" className="button" data-testid="sweep-export" onClick={() => downloadSweep(doc)} title="Save this sweep as a pipescope-sweep JSON file">
              Export JSON
            </button>
          )}
          {doc && (
            <button
              type="button"
              className="button"
              data-testid="sweep-export-csv"
              onClick={() => downloadText(sweepBenchmarkCsv(doc), sweepCsvFileName(doc), 'text/csv;charset=utf-8')}
              title="Save this sweep as CSV in redis-benchmark's --csv columns: one row per depth, median ops/s (client socket); latency columns n/a (a sweep keeps no per-command latencies)"
            >
              CSV (redis-benchmark columns)
            </button>
          )}
        </div>
      </div>
      <p className="sweep-statement" data-testid="sweep-statement">
        <strong>Untraced: no MONITOR, no strace — these are real throughput figures.</strong>
        {header && <span className="provenance"> {sweepProvenance(header)}.</span>}
        {series.serverShared && <span className="warn"> Redis counts include other clients.</span>}
      </p>
      <SweepChartView series={series} engine={display.engine} yScale={yScale} onYScaleChange={onYScale} state={display.state} />
      {doc?.referenceMissing && (
        <p className="sweep-note" data-testid="sweep-reference-missing">
          No redis-benchmark reference: {doc.referenceMissing}
        </p>
      )}
      {doc && coarseReferenceNote(doc) && <p className="sweep-note">{coarseReferenceNote(doc)}</p>}
      {doc && authRelayNote(doc) && <p className="sweep-note" data-testid="sweep-auth-relay">{authRelayNote(doc)}</p>}
      <SweepTableView rows={rows} baseDepth={baselineOf(series.ours)?.depth ?? null} hasReference={display.reference} cpuSource={series.serverCpuSource} />
    </section>
  );
}

function SweepEmpty({ offline }: { offline: boolean }) {
  return (
    <section className="empty">
      <h2>Throughput against pipeline depth, from your Redis</h2>
      {offline ? (
        <p>
          At each depth Pipescope sends the commands in pipelines of that many, waits for each pipeline’s replies before writing the next, and
          repeats. This static site has no backend to measure with: open a sweep file recorded with <code>npm run record -- sweep</code>, or
          start Pipescope with <code>npm start</code> to sweep your own Redis.
        </p>
      ) : (
        <p>
          At each depth — 1, 2, 4, … or a list of your own — Pipescope sends the commands in pipelines of that many, waits for each pipeline’s
          replies before writing the next, and repeats. Untraced, so the ops/s are real. The Redis docs say throughput rises almost linearly with
          depth, then levels off around 10× the un-pipelined rate; press <strong>Run sweep</strong> to see what yours does, or open a sweep file.
        </p>
      )}
    </section>
  );
}
