// What the heads over a sequence diagram's lifelines say: the client and its lane, Redis and where its
// times come from (MONITOR, the delay or observing proxy, or not traced), the Redis lane's probe (strace), and in canvas
// mode how to read the density bands. Chosen per frame, since the render mode is. Pure.
import { formatUs } from '../format/number-format.ts';
import type { TraceColumns } from '../model/trace-columns.ts';
import { DENSITY_ROW_PX } from './density-layout.ts';
import type { RenderMode } from './render-mode.ts';

export interface LaneHeads {
  client: string;
  clientNote: string;
  server: string;
  serverNote: string;
  /** Server-traced runs: a second line under the Redis head, about its lane. */
  serverLaneNote: string | null;
  /** Canvas mode only: how to read the density bands. */
  densityNote: string | null;
}

export function laneHeads(columns: TraceColumns, mode: RenderMode): LaneHeads {
  const { doc } = columns;
  const traced = doc.serverTrace !== null;
  const proxyNote = doc.run.observed ? '— arrows end at the observing proxy’s hand-over to Redis' : '— arrows end at the delay proxy’s hand-over to Redis';
  let serverNote = doc.proxy ? proxyNote : '— execution times not traced in this run';
  let serverLaneNote: string | null = null;
  if (traced) {
    // MONITOR and strace are separate choices (run.probes): say which this run had.
    const { monitor, strace } = doc.run.probes;
    const proxied = doc.proxy ? ' · arrows end at proxy hops' : '';
    serverNote = monitor ? `◆ executions from MONITOR, clock ±${formatUs(columns.clockUncertaintyUs)}${proxied}` : `— execution times not traced (MONITOR off)${proxied}`;
    // Short: it sits over the Redis lane, right of the lifeline's top; canvas mode's density note needs that line.
    if (mode === 'svg') serverLaneNote = columns.syscalls ? '▯ syscalls: strace' : strace ? 'strace unavailable' : 'strace off';
  }
  return {
    // The client's name without its parenthesised detail ("raw socket (pre-encoded RESP; …)"): the head has one lane's width.
    client: `Client · ${doc.recorder.client.replace(/\s*\(.*\)$/, '')}`,
    clientNote: doc.run.observed
      ? (mode === 'canvas' ? 'lane: in flight ▮, chunks at the proxy' : 'lane: the client’s chunks, at the proxy')
      : mode === 'canvas' ? 'lane: in flight ▮, socket writes & reads' : 'lane: socket writes & reads',
    server: `Redis ${doc.redis.version}`,
    serverNote,
    serverLaneNote,
    densityNote: mode === 'canvas' ? `each ${DENSITY_ROW_PX} px row: requests → · ← replies · longer, darker = more` : null,
  };
}
