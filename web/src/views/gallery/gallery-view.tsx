// The gallery: the sources' own workloads, one card each, every one a click away from running live
// beside the figure its source published (model/published-benchmarks.ts). It keeps each card's latest
// results per added RTT (model/gallery-runs.ts) while other cards, the run form or a file replace the
// traces in the run store, so the cards can be compared one after another. Like the sweep view it stays
// mounted once shown; while it is on screen the URL says #view=gallery (the page's view: url/page-link.ts).
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { RunSpec } from '../../../../trace/format/run-request.ts';
import type { RunStore } from '../../live/run-store.ts';
import type { TraceSource } from '../../live/store-types.ts';
import { collectResults, type GalleryResults } from '../../model/gallery-runs.ts';
import { PUBLISHED_BENCHMARKS, type PublishedBenchmarkId } from '../../model/published-benchmarks.ts';
import { GalleryCardView, type Result } from './gallery-card-view.tsx';
import './gallery-view.css';

interface Props {
  store: RunStore;
  /** Whether this view is the one on screen. */
  shown: boolean;
  /** Why no run can start now (no backend, Redis down, a sweep under way), or null. */
  blockedReason: string | null;
  /** Switches to the single-run view, where the run store's traces (just replaced) are drawn. */
  onShowRuns: () => void;
  /** The static site: the published figures without Run buttons (there is no backend). */
  offline?: boolean;
}

export function GalleryView({ store, shown, blockedReason, onShowRuns, offline = false }: Props) {
  const runs = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const collect = (prev: GalleryResults<TraceSource>) => collectResults(prev, PUBLISHED_BENCHMARKS, runs.traces, runs.tracesSource ?? 'live');
  const [results, setResults] = useState<GalleryResults<TraceSource>>(() => collect({}));
  useEffect(() => setResults(collect), [runs.traces, runs.tracesSource]);
  // Which card sent which request: the request under way is that card's while its spec is the one sent
  // (the tracker keeps the very object), not when the run form sent one since.
  const [started, setStarted] = useState<{ id: PublishedBenchmarkId; spec: RunSpec } | null>(null);
  const runningCard = runs.active && started && runs.active.spec === started.spec ? started.id : null;

  const run = (id: PublishedBenchmarkId, spec: RunSpec) => {
    if (store.run(spec)) setStarted({ id, spec });
  };
  const showRuns = (result: Result) => {
    store.showTraces(result.traces, result.source);
    onShowRuns();
  };

  return (
    <section className="gallery-view" hidden={!shown} data-testid="gallery-view" aria-label="Published benchmarks, run live">
      <div className="gallery-intro">
        <h2>{offline ? 'The published benchmarks' : 'The published benchmarks, run here'}</h2>
        {offline ? (
          <p>
            Each card is a workload from a write-up on Redis pipelining, with the figures its source published and what its client, machine and
            network were. Running them on your own Redis beside the published figures needs Pipescope’s backend: start it with{' '}
            <code>npm start</code>.
          </p>
        ) : (
          <p>
            Each card is a workload from a write-up on Redis pipelining, with the figures its source published and what its client, machine and
            network were. <strong>Run live</strong> runs the same workload on this machine’s Redis, both ways, and sets the figures side by side;
            the card then says why they differ and at what added round-trip time this machine’s ratio would meet the published one, which the
            delay proxy can then add.
          </p>
        )}
      </div>
      {PUBLISHED_BENCHMARKS.map((b) => (
        <GalleryCardView
          key={b.id}
          benchmark={b}
          results={results[b.id]}
          active={runningCard === b.id ? runs.active : null}
          blockedReason={blockedReason ?? (runs.active && runningCard !== b.id ? 'Another run is in progress' : null)}
          onRun={(spec) => run(b.id, spec)}
          onCancel={() => store.cancel()}
          onShowRuns={showRuns}
          offline={offline}
        />
      ))}
    </section>
  );
}
