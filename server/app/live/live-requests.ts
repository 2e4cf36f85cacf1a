// What one accepted request does once the queue starts it: a run request (each mode, repeated and
// interleaved) or a depth sweep, streamed to its connection through `send` as it goes, ending with
// request-done, cancelled, or an error that says what failed; then each whole run kept for links
// (recent-runs.ts) is named by a run-stored message.
import type { RunEndMessage, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { encodeBatch } from '../../../trace/protocol/live-protocol.ts';
import { memorySampled, type RunSpec } from '../../../trace/format/run-request.ts';
import type { SweepSpec } from '../../../trace/format/sweep-format.ts';
import type { TraceDocument } from '../../../trace/format/trace-format.ts';
import type { RecentRuns } from './recent-runs.ts';
import type { RedisSession } from '../../redis/redis-session.ts';
import { executeRun, type RunListener } from '../../runs/run-executor.ts';
import { roundOrder, runRounds } from '../../runs/run-rounds.ts';
import { executeSweep } from '../../runs/sweep-executor.ts';
import { measuring, outsideMeasurement } from '../../runs/measurement-window.ts';
import { RunCancelledError } from '../../support/run-cancelled-error.ts';
import { RequestTimeLimitError } from '../../support/run-stopped-errors.ts';

export type Send = (message: ServerMessage) => void;

/**
 * A run request: its modes in rounds, the order alternating, until its count, or until certain
 * (server/runs/run-rounds.ts). None of these timed runs samples memory; when the request does (memorySampled), one memory
 * repeat of each mode follows them (run.memoryRepeat), its time not compared. request-done says how
 * many rounds ran and why they stopped.
 */
export async function runRequest(send: Send, session: RedisSession, requestId: string, spec: RunSpec, signal: AbortSignal, recent?: RecentRuns): Promise<void> {
  // The run started and not yet ended: a Cancel names it, its events so far all sent.
  const underWay: { runId?: string } = {};
  // The runs finished, whole: kept for links once the request is over (a cancel keeps those before it).
  const finished: TraceDocument[] = [];
  try {
    const { rounds, stop } = await runRounds(session, { ...spec, memory: false }, () => liveRunListener(send, requestId, underWay), signal, undefined, (doc) => finished.push(doc));
    if (memorySampled(spec)) {
      for (const mode of roundOrder(spec.modes, 0)) finished.push(await executeRun(session, mode, { ...spec, memory: true, memoryRepeat: true }, liveRunListener(send, requestId, underWay), signal));
    }
    send({ type: 'request-done', requestId, rounds, stop });
  } catch (error) {
    reportFailure(send, requestId, signal, error, 'Run', underWay.runId);
  }
  // After the request's end, and off its turn in the queue: the next request starts at once.
  if (recent && finished.length > 0) void keepRuns(send, requestId, finished, recent);
}

/**
 * Keeps the request's runs for links and tells the page their ids. Encoding is CPU work on this thread, so
 * each run is encoded only while no run is being measured (measurement-window.ts), checked right before the
 * synchronous encoding, so that it can never land between a run's INFO snapshots; a run that starts
 * meanwhile waits for it in its set-up, before t0. The page hears between two runs' encodings.
 */
export async function keepRuns(send: Send, requestId: string, docs: readonly TraceDocument[], recent: RecentRuns): Promise<void> {
  for (const doc of docs) {
    await new Promise((resolve) => setImmediate(resolve));
    while (measuring()) await outsideMeasurement();
    const kept = recent.keep(doc);
    if ('id' in kept) send({ type: 'run-stored', requestId, runId: doc.run.id, storedId: kept.id });
  }
}

/**
 * Streams one run to the browser: its header, its events as they are flushed, and its end. A cancelled
 * run's last events are flushed (run-executor.ts) before executeRun throws, so they precede 'cancelled'.
 */
function liveRunListener(send: Send, requestId: string, underWay: { runId?: string }): RunListener {
  return {
    onStart: (start) => {
      underWay.runId = start.run.id;
      send({ type: 'run-start', requestId, ...start });
    },
    onBatch: (runId, batch) => send({ type: 'run-events', requestId, runId, ...encodeBatch(batch) }),
    // Sent before the run's own document is assembled and its keys deleted: the browser has what it needs.
    onEnd: (runId, { server, serverSide, memory, doneUs, kernelTcp, keysAfter, neighbor, heldConnection, serverCpu, probeCosts, clusterPlaces }) => {
      delete underWay.runId;
      const end: RunEndMessage = { type: 'run-end', requestId, runId, server, doneUs };
      if (serverSide) {
        end.serverTrace = serverSide.trace;
        if (serverSide.serverUs) end.serverUs = serverSide.serverUs;
      }
      if (memory) end.memory = memory;
      if (kernelTcp) end.kernelTcp = kernelTcp;
      if (keysAfter) end.keysAfter = keysAfter;
      if (neighbor) end.neighbor = neighbor;
      if (heldConnection) end.heldConnection = heldConnection;
      end.serverCpu = serverCpu;
      end.probeCosts = probeCosts;
      if (clusterPlaces) {
        end.cluster = clusterPlaces.record;
        end.commandPlaces = clusterPlaces.places;
      }
      send(end);
    },
  };
}

export async function sweepRequest(send: Send, session: RedisSession, requestId: string, spec: SweepSpec, signal: AbortSignal): Promise<void> {
  try {
    const document = await executeSweep(session, spec, {
      onStart: (header) => send({ type: 'sweep-start', requestId, ...header }),
      onProgress: (progress) => send({ type: 'sweep-progress', requestId, ...progress }),
    }, signal);
    send({ type: 'sweep-end', requestId, document });
    send({ type: 'request-done', requestId });
  } catch (error) {
    reportFailure(send, requestId, signal, error, 'Sweep');
  }
}

function reportFailure(send: Send, requestId: string, signal: AbortSignal, error: unknown, what: string, runId?: string): void {
  // Stopped at the server's hard bound (run-queue.ts): a failure to tell, not a Cancel.
  const limit = signal.reason instanceof RequestTimeLimitError ? signal.reason : null;
  if (!limit && (error instanceof RunCancelledError || signal.aborted)) send({ type: 'cancelled', requestId, ...(runId === undefined ? {} : { runId }) });
  else send({ type: 'error', requestId, message: `${what} failed: ${(limit ?? (error as Error)).message}` });
}
