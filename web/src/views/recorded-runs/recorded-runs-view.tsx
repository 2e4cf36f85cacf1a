// The static site's landing page (no ?trace= in the URL): the runs recorded for it, from traces/index.json
// (state/trace-index.ts), grouped as they are meant to be compared. Each run says what it shows and where
// and how it was measured (Redis, client, machine, date, the delay proxy's added RTT); its title opens it
// alone and the group's "Compare" link opens the group's files together, as relative ?trace= links, so the
// page works from any sub-path. A missing or damaged index is said in words; "Open trace…" still works.
import { useEffect, useState } from 'react';
import { addedDelayText, groupTraceIndex, provenanceLine, traceIndexOnce, traceLink, type TraceIndex, type TraceIndexGroup } from '../../state/trace-index.ts';
import './recorded-runs-view.css';

type IndexState = { kind: 'loading' } | { kind: 'loaded'; groups: TraceIndexGroup[] } | { kind: 'failed'; message: string };

interface Props {
  /** The index's loader; the default fetches traces/index.json beside the page, once per page. */
  load?: () => Promise<TraceIndex>;
}

export function RecordedRunsView({ load = traceIndexOnce }: Props) {
  const [state, setState] = useState<IndexState>({ kind: 'loading' });
  useEffect(() => {
    let live = true;
    load().then(
      (index) => live && setState({ kind: 'loaded', groups: groupTraceIndex(index) }),
      (error: unknown) => live && setState({ kind: 'failed', message: (error as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [load]);

  return (
    <section className="recorded-runs" data-testid="recorded-runs" aria-labelledby="recorded-runs-title">
      <div className="recorded-runs-intro">
        <h2 id="recorded-runs-title">Recorded runs</h2>
        <p>
          Real runs against a real Redis, recorded with <code>npm run record</code> and replayed here without a backend: every request and reply
          is drawn at the time the client socket saw it. Open one, or compare a pair side by side; press Space to play it back. To run your own,
          start Pipescope with <code>npm start</code>, or open a trace file recorded earlier.
        </p>
      </div>
      {state.kind === 'loading' && <p className="recorded-runs-note" role="status">Loading the list of recorded runs…</p>}
      {state.kind === 'failed' && (
        <p className="message message-error" role="alert" data-testid="recorded-runs-error">
          {state.message}. Traces can still be opened with Open trace… or a <code>?trace=</code> link.
        </p>
      )}
      {state.kind === 'loaded' && state.groups.length === 0 && <p className="recorded-runs-note">This site has no recorded runs.</p>}
      {state.kind === 'loaded' &&
        state.groups.map((group) => (
          <section key={group.title} className="recorded-runs-group" data-testid="recorded-runs-group" aria-label={group.title}>
            <header className="recorded-runs-group-head">
              <h3>{group.title}</h3>
              {group.entries.length > 1 && (
                <a className="button" href={traceLink(group.entries)} data-testid="recorded-runs-compare">
                  Compare {group.entries.length === 2 ? 'both' : `all ${group.entries.length}`}
                </a>
              )}
            </header>
            <ul className="recorded-runs-list">
              {group.entries.map((entry) => (
                <li key={entry.file} className="recorded-run" data-testid="recorded-run" data-file={entry.file}>
                  <a className="recorded-run-title" href={traceLink([entry])}>
                    {entry.title}
                  </a>
                  <p className="recorded-run-about">{entry.about}</p>
                  <p className="recorded-run-provenance">
                    {provenanceLine(entry.provenance)} · {addedDelayText(entry.provenance)}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </section>
  );
}
