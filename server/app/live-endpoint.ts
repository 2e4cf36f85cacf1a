// The WebSocket endpoint browsers talk to. Every incoming message is validated; a bad one gets a
// clear error back and the server carries on. Runs go through the shared RunQueue; probe events
// are forwarded as they are flushed; a closed tab cancels its runs.
import type { Server } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClientMessageSchema, LIVE_PATH, encodeBatch, parseFrame, type ClientMessage, type RunEndMessage, type ServerMessage } from '../../trace/live-protocol.ts';
import { REPEAT_BELOW_US, type RunSpec } from '../../trace/run-request.ts';
import type { SweepSpec } from '../../trace/sweep-format.ts';
import { RUN_MODES } from '../../trace/trace-format.ts';
import { projectVersion } from '../support/project-root.ts';
import type { RedisSession } from '../redis/redis-session.ts';
import { executeRun, type RunListener } from '../runs/run-executor.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';
import type { RunQueue } from '../runs/run-queue.ts';
import { executeSweep } from '../runs/sweep-executor.ts';

const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;
const STATUS_INTERVAL_MS = 3_000;

export function attachLiveEndpoint(http: Server, session: RedisSession, queue: RunQueue): WebSocketServer {
  const wss = new WebSocketServer({ server: http, path: LIVE_PATH, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
  let lastStatus = '';
  const broadcastStatus = async () => {
    // The health check's PING is traffic too: while a run is measured it would land in the run's INFO
    // deltas (and make them non-exclusive). A failing run reports an unreachable Redis by itself.
    if (queue.length > 0) return;
    const redis = await session.status();
    const text = JSON.stringify(redis);
    if (text === lastStatus) return;
    lastStatus = text;
    for (const client of wss.clients) send(client, { type: 'redis-status', redis });
  };
  const timer = setInterval(() => void broadcastStatus(), STATUS_INTERVAL_MS);
  timer.unref();
  wss.on('close', () => clearInterval(timer));

  wss.on('connection', (socket) => {
    const mine = new Set<string>();
    void session.status().then((redis) => send(socket, { type: 'hello', version: projectVersion(), redis }));
    socket.on('message', (data, isBinary) => {
      const message = parseMessage(isBinary ? null : data.toString());
      if ('error' in message) return send(socket, { type: 'error', message: message.error });
      const { requestId } = message.value;
      if (message.value.type === 'cancel') {
        const outcome = mine.has(requestId) ? queue.cancel(requestId) : null;
        if (outcome === null) return send(socket, { type: 'error', requestId, message: `No run ${requestId} to cancel.` });
        if (outcome === 'removed') {
          mine.delete(requestId);
          send(socket, { type: 'cancelled', requestId });
        }
        return; // a running request reports 'cancelled' itself once its run has stopped
      }
      if (mine.has(requestId)) return send(socket, { type: 'error', requestId, message: `Request ${requestId} already exists.` });
      mine.add(requestId);
      const request = message.value;
      queue.enqueue({
        id: requestId,
        onPosition: (position) => send(socket, { type: 'queued', requestId, position }),
        run: (signal) => (request.type === 'sweep'
          ? sweepRequest(socket, session, requestId, request.spec, signal)
          : runRequest(socket, session, requestId, request.spec, signal)
        ).finally(() => mine.delete(requestId)),
      });
    });
    socket.on('close', () => {
      for (const requestId of mine) queue.cancel(requestId);
    });
    socket.on('error', () => socket.terminate());
  });
  return wss;
}

type Parsed = { value: ClientMessage } | { error: string };

function parseMessage(text: string | null): Parsed {
  const frame = parseFrame(ClientMessageSchema, text);
  if ('value' in frame) return frame;
  const { problem } = frame;
  if (problem.kind === 'binary') return { error: 'Binary messages are not understood; send JSON text.' };
  if (problem.kind === 'json') return { error: 'Message is not valid JSON.' };
  return { error: `Invalid message: ${problem.issues}` };
}

/**
 * A run request: each mode `repeats` times, interleaved (sequential 0, pipeline 0, sequential 1, …) so
 * that a slow spell of the machine falls on both modes alike. Runs that take a second or more are not
 * repeated: after the first round, if any run took that long, the request ends there.
 */
async function runRequest(socket: WebSocket, session: RedisSession, requestId: string, spec: RunSpec, signal: AbortSignal): Promise<void> {
  const modes = RUN_MODES.filter((mode) => spec.modes.includes(mode)); // sequential first, like the docs
  try {
    for (let repeat = 0; repeat < spec.repeats; repeat++) {
      let slowest = 0;
      for (const mode of modes) {
        const doc = await executeRun(session, mode, { ...spec, repeat }, liveRunListener(socket, requestId), signal);
        slowest = Math.max(slowest, doc.totals.doneUs);
      }
      if (slowest >= REPEAT_BELOW_US) break;
    }
    send(socket, { type: 'request-done', requestId });
  } catch (error) {
    reportFailure(socket, requestId, signal, error, 'Run');
  }
}

/** Streams one run to the browser: its header, its events as they are flushed, and its end. */
function liveRunListener(socket: WebSocket, requestId: string): RunListener {
  return {
    onStart: (start) => send(socket, { type: 'run-start', requestId, ...start }),
    onBatch: (runId, batch) => send(socket, { type: 'run-events', requestId, runId, ...encodeBatch(batch) }),
    // Sent before the run's own document is assembled and its keys deleted: the browser has what it needs.
    onEnd: (runId, { server, serverSide, memory, doneUs, kernelTcp }) => {
      const end: RunEndMessage = { type: 'run-end', requestId, runId, server, doneUs };
      if (serverSide) {
        end.serverTrace = serverSide.trace;
        if (serverSide.serverUs) end.serverUs = serverSide.serverUs;
      }
      if (memory) end.memory = memory;
      if (kernelTcp) end.kernelTcp = kernelTcp;
      send(socket, end);
    },
  };
}

async function sweepRequest(socket: WebSocket, session: RedisSession, requestId: string, spec: SweepSpec, signal: AbortSignal): Promise<void> {
  try {
    const document = await executeSweep(session, spec, {
      onStart: (header) => send(socket, { type: 'sweep-start', requestId, ...header }),
      onProgress: (progress) => send(socket, { type: 'sweep-progress', requestId, ...progress }),
    }, signal);
    send(socket, { type: 'sweep-end', requestId, document });
    send(socket, { type: 'request-done', requestId });
  } catch (error) {
    reportFailure(socket, requestId, signal, error, 'Sweep');
  }
}

function reportFailure(socket: WebSocket, requestId: string, signal: AbortSignal, error: unknown, what: string): void {
  if (error instanceof RunCancelledError || signal.aborted) send(socket, { type: 'cancelled', requestId });
  else send(socket, { type: 'error', requestId, message: `${what} failed: ${(error as Error).message}` });
}

function send(socket: WebSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
