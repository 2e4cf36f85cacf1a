// The Observe tab: point any Redis client or application at Pipescope and see how it really pipelines.
// The switch opens the observing port (the backend forwards every connection to its Redis and records
// it); the page shows the address to give the client with lines to paste, the proxy's measured cost per
// round trip, an added RTT to try the app at a distance, and the session's connections as they come —
// each drawable like a run, growing while the app runs. "Run it" buttons run real redis-py (pipeline()
// with and without its transaction) and the Redis docs' Ruby benchmark through the port.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ObserveClient, ObserveStatus } from '../../../../trace/protocol/observe-protocol.ts';
import type { RunSpec } from '../../../../trace/format/run-request.ts';
import { publishedBenchmark } from '../../model/published-benchmarks.ts';
import { copyToClipboard } from '../../base/clipboard.ts';
import { formatCount } from '../../format/number-format.ts';
import { observeSnippets } from '../../format/observe-snippets.ts';
import { MAX_DRAWN, type ObserveStore } from '../../live/observe-store.ts';
import './observe-view.css';

interface Props {
  store: ObserveStore;
  /** Why the page cannot observe now (no backend, Redis down), or null. */
  blockedReason: string | null;
}

/** The real clients the page can run through the port, and what each batch shows. */
export const CLIENT_RUNS: { id: string; clients: ObserveClient[]; label: string; n: number; beside?: RunSpec; hint: string }[] = [
  { id: 'redis-py', clients: ['redis-py-transaction', 'redis-py-plain'], label: 'redis-py: pipeline() vs pipeline(transaction=False)', n: 10,
    hint: 'Real redis-py (python3-redis) sends 10 INCRs with its default pipeline(), a MULTI … EXEC transaction, then with transaction=False' },
  { id: 'redis-py-sequential', clients: ['redis-py-sequential'], label: 'redis-py, one INCR at a time', n: 10,
    hint: 'Real redis-py sends 10 INCRs without a pipeline: one round trip each' },
  { id: 'redis-rb', clients: ['redis-rb-ping'], label: 'Ruby: the docs’ 10,000 PINGs, beside Pipescope’s', n: 10_000, beside: publishedBenchmark('docs-ping').spec,
    hint: 'The Redis docs’ own Ruby benchmark (ruby-redis) with and without pipelined, then Pipescope’s run of the same 10,000 PINGs, side by side' },
];

export function ObserveView({ store, blockedReason }: Props) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const status = snap.status;
  const [rtt, setRtt] = useState('0');
  const rttMs = Math.max(0, Math.min(10_000, Number(rtt) || 0));
  const open = status?.open ?? false;
  // While this view is on screen, the connections drawn are the results below it.
  useEffect(() => {
    store.setShown(true);
    return () => store.setShown(false);
  }, [store]);
  return (
    <section className="observe" data-testid="observe" aria-labelledby="observe-title">
      <div className="observe-head">
        <h2 id="observe-title">Observe your own client</h2>
        <p className="observe-lede">
          Point any Redis client or application at Pipescope: the observing port forwards every connection to {status?.target ?? 'Redis'} and
          records it, so you see what your library really puts on the wire — how many commands per write, how many round trips, MULTI/EXEC or not.
        </p>
        <div className="observe-controls">
          <button
            type="button"
            className={`button${open ? ' on' : ' primary'}`}
            aria-pressed={open}
            data-testid="observe-toggle"
            disabled={blockedReason !== null}
            title={blockedReason ?? undefined}
            onClick={() => (open ? store.close() : store.open(rttMs, 0))}
          >
            {open ? 'Close the observing port' : 'Open the observing port'}
          </button>
          <label className="observe-rtt">
            Added RTT{' '}
            <input type="number" min={0} max={10000} step={1} value={rtt} data-testid="observe-rtt" onChange={(e) => setRtt(e.target.value)}
              onBlur={() => open && store.setDelay(rttMs, 0)} /> ms
            <span className="hint"> for connections from now on (half each way)</span>
          </label>
          <label className="observe-monitor" title="MONITOR on the target: each connection opened from now on gets Redis's execution times, in its trace once the session stops. It costs Redis a little on every command.">
            <input type="checkbox" checked={status?.monitor ?? false} disabled={!open} data-testid="observe-monitor"
              onChange={(e) => store.setMonitor(e.target.checked)} /> MONITOR from Redis
          </label>
          {open && (
            <button type="button" className="button" data-testid="observe-stop" onClick={() => store.stop()}>
              Stop the session
            </button>
          )}
        </div>
        {snap.error && <p className="message message-error" role="alert">{snap.error}</p>}
      </div>
      {open && status?.url && <Address status={status} />}
      {open && <HopLine status={status!} />}
      {status && (
        <div className="observe-runs">
          <span className="hint">Or run a real client through it:</span>
          {CLIENT_RUNS.map((run) => (
            <button key={run.id} type="button" className="button" data-testid={`observe-run-${run.id}`} title={run.hint}
              disabled={blockedReason !== null || status.clientRunning !== null}
              onClick={() => store.runClients(run.clients, run.n, run.beside && { ...run.beside, repeats: 1 })}>
              {status.clientRunning && run.clients.includes(status.clientRunning) ? `${run.label}…` : run.label}
            </button>
          ))}
          {status.clientMessage && <p className="hint" data-testid="observe-client-message">{status.clientMessage}</p>}
        </div>
      )}
      {status?.session && <Connections store={store} status={status} drawn={snap.drawn} />}
      {snap.stopped && snap.stopped.traces.length > 0 && (
        <p className="hint" data-testid="observe-stopped">
          Session stopped: {formatCount(snap.stopped.traces.length)} connection{snap.stopped.traces.length === 1 ? '' : 's'} kept as traces.{' '}
          <button type="button" className="link-button" onClick={() => store.showStopped()}>Show them</button>
          {' '}(Save or Export them from the results below.)
        </p>
      )}
    </section>
  );
}

function Address({ status }: { status: ObserveStatus }) {
  const url = status.url!;
  const [copied, setCopied] = useState<string | null>(null);
  const copy = (what: string, text: string) => void copyToClipboard(text).then((ok) => setCopied(ok ? what : null));
  return (
    <div className="observe-address">
      <p>
        Give your client <code data-testid="observe-url">{url}</code>{' '}
        <button type="button" className="link-button" onClick={() => copy('url', url)}>{copied === 'url' ? 'Copied' : 'Copy'}</button>
        {status.rttMs > 0 && <span className="hint"> · adding {status.rttMs} ms RTT</span>}
        <span className="hint"> · a Redis with a password: your client sends its own AUTH (forwarded, never recorded)</span>
      </p>
      <details className="observe-snippets">
        <summary>Lines to paste: redis-cli, redis-py, redis-rb, Node</summary>
        {observeSnippets(url).map((s) => (
          <div key={s.client} className="observe-snippet">
            <span className="snippet-client">{s.client}</span>
            <pre>{s.code}</pre>
            <button type="button" className="link-button" onClick={() => copy(s.client, s.code)}>{copied === s.client ? 'Copied' : 'Copy'}</button>
          </div>
        ))}
      </details>
    </div>
  );
}

function HopLine({ status }: { status: ObserveStatus }) {
  const hop = status.hop;
  return (
    <p className="observe-hop hint" data-testid="observe-hop">
      {status.measuringHop ? 'Measuring the proxy’s own cost per round trip…'
        : hop ? `The proxy adds ${hop.addedUs.toFixed(1)} µs per round trip [95 % ${hop.addedLowUs.toFixed(1)}–${hop.addedHighUs.toFixed(1)}]: `
          + `PING ${hop.throughMedianUs.toFixed(1)} µs through it, ${hop.aroundMedianUs.toFixed(1)} µs around it (median of ${formatCount(hop.pairs)} pairs, side by side).`
        : 'The proxy’s cost per round trip is not measured yet.'}
    </p>
  );
}

function Connections({ store, status, drawn }: { store: ObserveStore; status: ObserveStatus; drawn: readonly number[] }) {
  const session = status.session!;
  return (
    <div className="observe-session">
      <p className="hint">
        Session {session.id}: {formatCount(session.connections.length)} connection{session.connections.length === 1 ? '' : 's'}, {formatCount(session.commands)} commands
        {session.refused > 0 && `, ${formatCount(session.refused)} refused`}. Draw up to {MAX_DRAWN}; they grow while your client runs.
      </p>
      {session.full && <p className="message message-info">Recording stopped: {session.full}.</p>}
      {session.notes.map((note) => <p key={note} className="hint observe-note">{note}</p>)}
      {session.connections.length === 0 ? (
        <p className="observe-empty" data-testid="observe-empty">No connection yet: point a client at the address above.</p>
      ) : (
        <table className="observe-connections" data-testid="observe-connections">
          <thead>
            <tr>
              <th scope="col">Draw</th>
              <th scope="col">#</th>
              <th scope="col">client address</th>
              <th scope="col">library</th>
              <th scope="col">commands</th>
              <th scope="col">replies</th>
              <th scope="col">state</th>
            </tr>
          </thead>
          <tbody>
            {session.connections.map((c) => (
              <tr key={c.connection} data-testid="observe-connection">
                <td>
                  <input type="checkbox" checked={drawn.includes(c.connection)} disabled={c.commands === 0}
                    aria-label={`Draw connection ${c.connection}`} onChange={() => store.toggle(c.connection)} />
                </td>
                <td>{c.connection}</td>
                <td>{c.clientAddress}</td>
                <td>{c.client}</td>
                <td className="number">{formatCount(c.commands)}</td>
                <td className="number">{formatCount(c.replies)}</td>
                <td title={c.notes.join('\n')}>{c.open ? 'open' : 'closed'}{c.notes.length ? ' · note' : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
