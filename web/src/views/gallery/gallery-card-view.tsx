// One published benchmark in the gallery: the source's figures with their context (client, machine,
// network) beside the same workload measured here (times as median [min–max] over the repeats, the ratio
// as the median of the per-round ratios with its 95 % interval), the sentences
// that explain the difference, and the buttons: run it live, rerun it through the delay proxy at the
// added RTT the model says would match the published ratio, show the runs' diagrams. The netcat example
// publishes bytes, not times: its card shows what the raw socket wrote and read.
import { useState } from 'react';
import { medianRepeat } from '../../../../trace/derive/repeat-stats.ts';
import type { RunSpec } from '../../../../trace/format/run-request.ts';
import type { TraceDocument } from '../../../../trace/format/trace-format.ts';
import { addedRttMs, delayedPredictionText, factorText, gapText, netcatText, rttMsText, whyDiffersText } from '../../format/gallery-text.ts';
import { formatCount, formatUs } from '../../format/number-format.ts';
import { baseRttUs, longRunCheck } from '../../format/rtt-estimate.ts';
import { spreadText } from '../../format/spread-text.ts';
import type { ActiveRequest } from '../../live/live-run-tracker.ts';
import type { TraceSource } from '../../live/store-types.ts';
import { directAndDelayed, livePair, type GalleryResult } from '../../model/gallery-runs.ts';
import { gapEstimate, type LivePair } from '../../model/pipelining-gap.ts';
import type { PublishedBenchmark } from '../../model/published-benchmarks.ts';
import { GalleryFiguresView, type Figure } from './gallery-figures-view.tsx';
import { RunProgressView } from '../run-form/run-progress-view.tsx';

export type Result = GalleryResult<TraceSource>;

interface Props {
  benchmark: PublishedBenchmark;
  results: readonly Result[] | undefined;
  /** The request under way, when this card started it. */
  active: ActiveRequest | null;
  /** Why no run can start now (no backend, Redis down, another run or a sweep under way), or null. */
  blockedReason: string | null;
  onRun: (spec: RunSpec) => void;
  onCancel: () => void;
  onShowRuns: (result: Result) => void;
  /** The static site: no backend, so no Run buttons; the published side and any recorded result still show. */
  offline?: boolean;
}

const SOURCE_HEADING: Record<TraceSource, string> = {
  live: 'Measured here',
  file: 'Recorded run, opened from a file',
  url: 'Recorded run, loaded from the URL',
  history: 'Recorded run, from this browser’s history',
  stored: 'Recorded run, kept by this Pipescope for a link',
};

const NO_FIGURE: Omit<Figure, 'name' | 'label'> = { text: '—', range: null, spread: null };

function timeFigure(name: 'sequential' | 'pipeline', label: string, pair: LivePair): Figure {
  const spread = name === 'sequential' ? pair.sequentialUs : pair.pipelineUs;
  const runs = name === 'sequential' ? pair.sequentialRuns : pair.pipelineRuns;
  const text = spreadText(spread, formatUs);
  return { name, label, text: text.median, range: runs > 1 ? text.range : null, spread };
}

/** The median of the per-round ratios with its 95 % interval (trace/derive/paired-verdict.ts); the median alone with fewer than 6 pairs. */
function ratioFigure(pair: LivePair): Figure {
  const { median, lo, hi } = pair.ratio;
  const spread = { median, min: lo ?? median, max: hi ?? median };
  const range = lo !== null && hi !== null ? `[95 % ${factorText(lo).replace('×', '')}–${factorText(hi)}]` : null;
  return { name: 'ratio', label: 'Ratio', text: factorText(median), range, spread };
}

function liveFigures(pair: LivePair | null): Figure[] {
  if (!pair) return [{ name: 'sequential', label: 'Sequential', ...NO_FIGURE }, { name: 'pipeline', label: 'One pipeline', ...NO_FIGURE }, { name: 'ratio', label: 'Ratio', ...NO_FIGURE }];
  return [timeFigure('sequential', 'Sequential', pair), timeFigure('pipeline', 'One pipeline', pair), ratioFigure(pair)];
}

/** "ioredis 6.0.0 · Redis 7.0.15 · loopback, no added delay · RTT 41 µs on the run's connection · median [min–max] of 10 runs each, …". */
function liveContext(result: Result, pair: LivePair | null): string {
  const doc = result.traces[0]!;
  const network = result.addedMs > 0 ? `delay proxy: +${rttMsText(result.addedMs)} added RTT` : 'loopback, no added delay';
  const rtt = pair ? ` · RTT ${formatUs(pair.rttUs)} on the run’s connection (PINGs before t0)` : '';
  const runs =
    !pair ? ''
    : pair.sequentialRuns > 1 || pair.pipelineRuns > 1
      ? ` · times: median [min–max] of ${formatCount(Math.max(pair.sequentialRuns, pair.pipelineRuns))} runs each, in rounds; ratio: median of ${formatCount(pair.ratio.pairs)} per-round ratios${pair.ratio.lo === null ? ' (too few for a 95 % interval)' : ', 95 % interval'}`
    : ' · one run each (a run of a second or more is not repeated)';
  return `${doc.recorder.client} · Redis ${doc.redis.version} · ${network}${rtt}${runs}`;
}

const firstWriteUs = (traces: readonly TraceDocument[]) => medianRepeat(traces.filter((d) => d.run.mode === 'pipeline'))?.writes[0]?.atUs ?? null;

export function GalleryCardView({ benchmark: b, results, active, blockedReason, onRun, onCancel, onShowRuns, offline = false }: Props) {
  const { direct, delayed } = directAndDelayed(results);
  const [confirmLong, setConfirmLong] = useState<RunSpec | null>(null);
  const pair = direct ? livePair(direct.traces) : null;
  const f = b.figures;
  const estimate = pair && f ? gapEstimate(pair, f.ratio) : null;
  const match = estimate?.match.kind === 'match' ? estimate.match : null;
  const delaySpec = match ? { ...b.spec, rttMs: addedRttMs(match.addedUs) } : null;
  const running = active !== null;
  const disabled = blockedReason !== null || running;

  const runDelayed = () => {
    if (!delaySpec || !direct) return;
    const long = longRunCheck(delaySpec, baseRttUs(direct.traces[0]));
    if (long && confirmLong === null) setConfirmLong(delaySpec);
    else {
      setConfirmLong(null);
      onRun(long ? { ...delaySpec, confirmLongRun: true } : delaySpec); // asked and answered: the backend's rule too
    }
  };
  const longRun = confirmLong && direct ? longRunCheck(confirmLong, baseRttUs(direct.traces[0])) : null;

  return (
    <article className="gallery-card" data-testid="gallery-card" data-benchmark={b.id} aria-labelledby={`gallery-${b.id}`}>
      <header className="gallery-card-head">
        <h3 id={`gallery-${b.id}`}>{b.workload}</h3>
        <p className="gallery-source">{b.source}</p>
      </header>
      <div className="gallery-sides">
        {f ? (
          <GalleryFiguresView
            heading="Published"
            testId="gallery-published"
            figures={[
              { name: 'sequential', label: 'Sequential', text: f.sequentialText ?? '—', range: null, spread: null },
              { name: 'pipeline', label: 'One pipeline', text: f.pipelineText ?? '—', range: null, spread: null },
              { name: 'ratio', label: 'Ratio', text: f.ratioText, range: null, spread: { median: f.ratio, min: f.ratio, max: f.ratio } },
            ]}
            context={<Context b={b} />}
          />
        ) : (
          <section className="gallery-side" data-testid="gallery-published">
            <h4>Published</h4>
            <p className="gallery-outcome">{b.publishedOutcome}</p>
            <div className="gallery-context"><Context b={b} /></div>
          </section>
        )}
        {f ? (
          <GalleryFiguresView
            heading={direct ? SOURCE_HEADING[direct.source] : 'Measured here'}
            testId="gallery-live"
            figures={liveFigures(pair)}
            context={direct ? liveContext(direct, pair) : running ? 'Running…' : notRunText(offline)}
          />
        ) : (
          <section className="gallery-side" data-testid="gallery-live">
            <h4>{direct ? SOURCE_HEADING[direct.source] : 'Measured here'}</h4>
            <p className="gallery-outcome" data-testid="gallery-netcat">
              {direct ? netcatText(direct.traces[0]!) : running ? 'Running…' : notRunText(offline)}
            </p>
            {direct && <div className="gallery-context">{liveContext(direct, null)}</div>}
          </section>
        )}
      </div>
      {b.caveat && <p className="gallery-caveat">{b.caveat}</p>}
      {pair && f && estimate && (
        <div className="gallery-explain" data-testid="gallery-explain">
          <p data-testid="gallery-why">{whyDiffersText(b, pair, firstWriteUs(direct!.traces))}</p>
          <p data-testid="gallery-gap">{gapText(b, pair, estimate)}</p>
          {estimate.publishedWithinInterval && (
            <p>The published {f.ratioText} lies within the 95 % interval of our ratio: noise alone could account for the difference.</p>
          )}
        </div>
      )}
      {delayed && (
        <DelayedResult result={delayed} direct={pair} publishedRatio={f?.ratio ?? null} ratioText={f?.ratioText ?? ''} onShowRuns={() => onShowRuns(delayed)} />
      )}
      <div className="gallery-actions">
        {!offline && (
          <button type="button" className="button primary" data-testid="gallery-run" disabled={disabled} title={blockedReason ?? undefined} onClick={() => onRun(b.spec)}>
            Run live
          </button>
        )}
        {delaySpec && !offline && (
          <button
            type="button"
            className="button"
            data-testid="gallery-run-delayed"
            disabled={disabled}
            title="Rerun through Pipescope's TCP delay proxy, which holds each chunk for half the added RTT each way"
            onClick={runDelayed}
          >
            Run at {rttMsText(delaySpec.rttMs)} added RTT <span className="gallery-note">(delay proxy)</span>
          </button>
        )}
        {direct && (
          <button type="button" className="button" data-testid="gallery-show-runs" onClick={() => onShowRuns(direct)}>
            Show the runs
          </button>
        )}
        {running && (
          <button type="button" className="button danger" onClick={onCancel} disabled={active.cancelling}>
            {active.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
        {blockedReason && !running && !offline && <span className="gallery-note">{blockedReason}</span>}
      </div>
      {longRun && (
        <p className="gallery-confirm" role="alertdialog" data-testid="gallery-confirm-long">
          Sequentially this takes about {formatUs(longRun.expectedUs)}: {formatCount(longRun.roundTrips)} round trips of {rttMsText(confirmLong!.rttMs)} added
          delay plus the connection’s own RTT.{' '}
          <button type="button" className="button" onClick={runDelayed} disabled={disabled}>
            Run it anyway
          </button>{' '}
          <button type="button" className="link-button" onClick={() => setConfirmLong(null)}>
            Back
          </button>
        </p>
      )}
      {running && <RunProgressView active={active} />}
    </article>
  );
}

/** What the live side says before a run: how to run it, or, on the static site, why it cannot. */
function notRunText(offline: boolean): string {
  return offline ? 'Not run here: this static site has no backend (npm start runs it live on your Redis).' : 'Not run yet: press Run live.';
}

function Context({ b }: { b: PublishedBenchmark }) {
  const onlyRatio = b.figures !== null && b.figures.sequentialMs === null;
  return (
    <>
      {onlyRatio && <p className="gallery-only-ratio">{capitalise(b.shortName)} publishes the ratio only, not the two times.</p>}
      <span>Client: {b.client}</span> · <span>Machine: {b.machine}</span> · <span>Network: {b.network}</span>
    </>
  );
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

interface DelayedProps {
  result: Result;
  direct: LivePair | null;
  publishedRatio: number | null;
  ratioText: string;
  onShowRuns: () => void;
}

/** The rerun through the delay proxy: its figures, and what the model had predicted for it. */
function DelayedResult({ result, direct, publishedRatio, ratioText, onShowRuns }: DelayedProps) {
  const pair = livePair(result.traces);
  const predicted = direct && pair && publishedRatio !== null ? delayedPredictionText(direct, pair, result.addedMs, ratioText) : '';
  return (
    <div className="gallery-delayed" data-testid="gallery-delayed">
      <GalleryFiguresView
        heading={`${SOURCE_HEADING[result.source]}, through the delay proxy at ${rttMsText(result.addedMs)} added RTT`}
        testId="gallery-delayed-figures"
        figures={liveFigures(pair)}
        context={
          <>
            {liveContext(result, pair)}
            {predicted && <p className="gallery-predicted">{predicted}</p>}
            <button type="button" className="link-button" data-testid="gallery-show-delayed-runs" onClick={onShowRuns}>
              Show these runs
            </button>
          </>
        }
      />
    </div>
  );
}
