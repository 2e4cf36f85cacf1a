// A WebSocket client of the running app that does what the page does with a run request: sends it,
// and rebuilds each of its runs' traces from run-start, run-events and run-end (new TraceBuilder from
// the start message, decodeBatch into it, finishRun), so the bench sees the very documents a user's
// browser draws. One request at a time, like a user pressing Run and waiting for it.
import WebSocket from 'ws';
import { LIVE_PATH, decodeBatch, finishRun, parseServerFrame, type ServerMessage } from '../trace/protocol/live-protocol.ts';
import type { RunSpec } from '../trace/format/run-request.ts';
import { TraceBuilder } from '../trace/format/trace-builder.ts';
import type { TraceDocument } from '../trace/format/trace-format.ts';

interface Pending {
  requestId: string;
  builders: Map<string, TraceBuilder>;
  docs: TraceDocument[];
  resolve(docs: TraceDocument[]): void;
  reject(error: Error): void;
}

export class LiveClient {
  private pending: Pending | undefined;
  private requests = 0;
  /** What the last request-done said: the rounds a run request ran and why they stopped. */
  lastDone: { rounds?: number; stop?: string } = {};

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => this.receive(String(data)));
    socket.on('close', () => this.pending?.reject(new Error('The live socket closed during a request')));
  }

  static async connect(appUrl: string): Promise<LiveClient> {
    const socket = new WebSocket(`${appUrl.replace(/^http/, 'ws').replace(/\/$/, '')}${LIVE_PATH}`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new LiveClient(socket);
  }

  /** Sends one run request and resolves with every run's trace, in the order the runs ended. */
  run(spec: RunSpec): Promise<TraceDocument[]> {
    if (this.pending) throw new Error('LiveClient runs one request at a time');
    const requestId = `bench-${process.pid}-${++this.requests}`;
    return new Promise<TraceDocument[]>((resolve, reject) => {
      const done = () => (this.pending = undefined);
      this.pending = {
        requestId, builders: new Map(), docs: [],
        resolve: (docs) => (done(), resolve(docs)),
        reject: (error) => (done(), reject(error)),
      };
      this.socket.send(JSON.stringify({ type: 'run', requestId, spec }));
    });
  }

  close(): void {
    this.socket.close();
  }

  private receive(text: string): void {
    const frame = parseServerFrame(text);
    const pending = this.pending;
    if (!pending) return;
    if ('problem' in frame) return pending.reject(new Error(`The app sent a frame that is not a message: ${JSON.stringify(frame.problem)}`));
    const message: ServerMessage = frame.value;
    // An error without a request id answers a message the app could not read: ours, one at a time.
    const ours = message.type === 'error'
      ? (message.requestId ?? pending.requestId) === pending.requestId
      : 'requestId' in message && message.requestId === pending.requestId;
    if (!ours) return;
    try {
      this.apply(pending, message);
    } catch (error) {
      pending.reject(error as Error);
    }
  }

  private apply(pending: Pending, message: ServerMessage): void {
    const builder = (runId: string) => {
      const found = pending.builders.get(runId);
      if (!found) throw new Error(`Events for run ${runId}, which never started`);
      return found;
    };
    switch (message.type) {
      case 'run-start':
        pending.builders.set(message.run.id, new TraceBuilder(message));
        break;
      case 'run-events':
        builder(message.runId).addBatch(decodeBatch(message));
        break;
      case 'run-end':
        pending.docs.push(finishRun(builder(message.runId), message));
        pending.builders.delete(message.runId);
        break;
      case 'request-done':
        this.lastDone = { rounds: message.rounds, stop: message.stop };
        pending.resolve(pending.docs);
        break;
      case 'error':
        throw new Error(`The app refused or failed the request: ${message.message}`);
      case 'cancelled':
        throw new Error('The app cancelled the request');
      default:
        break;
    }
  }
}
