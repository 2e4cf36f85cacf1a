// For integration tests of the live endpoint: a WebSocket client that validates and keeps every
// message as the browser does, waits for the ones a test names, and records how the socket closed.
import WebSocket, { type ClientOptions } from 'ws';
import { LIVE_PATH, ServerMessageSchema, decodeBatch, finishRun, type ServerMessage } from '../../trace/protocol/live-protocol.ts';
import { TraceBuilder } from '../../trace/format/trace-builder.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';

/** The app's /live, keeping a query ("http://h:p/?follow=c" → "ws://h:p/live?follow=c"). */
export const liveUrlOf = (appUrl: string) => appUrl.replace(/^http/, 'ws').replace(/\/(\?.*)?$/, `${LIVE_PATH}$1`);

export class LiveTestClient {
  readonly messages: ServerMessage[] = [];
  /** Every frame's text as it arrived, for checks on exact bytes (no secret anywhere). */
  readonly raw: string[] = [];
  closed: { code: number; reason: string } | undefined;
  readonly socket: WebSocket;
  private waiters: (() => void)[] = [];

  constructor(appUrl: string, options: ClientOptions = {}) {
    this.socket = new WebSocket(liveUrlOf(appUrl), options);
    this.socket.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      this.messages.push(ServerMessageSchema.parse(JSON.parse(text)));
      this.wake();
    });
    this.socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    this.socket.on('error', () => this.wake());
  }

  /** Resolves when open and the backend has said hello. */
  async open(): Promise<this> {
    await new Promise((resolve, reject) => this.socket.once('open', resolve).once('error', reject));
    await this.next((m) => m.type === 'hello');
    return this;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' || Buffer.isBuffer(message) ? message : JSON.stringify(message));
  }

  async next<T extends ServerMessage>(match: (m: ServerMessage) => m is T): Promise<T>;
  async next(match: (m: ServerMessage) => boolean): Promise<ServerMessage>;
  async next(match: (m: ServerMessage) => boolean): Promise<ServerMessage> {
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (this.closed) throw new Error(`The socket closed (${this.closed.code} ${this.closed.reason}) before the message came`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** The request's last message of one of these types (request-done, cancelled, error…). */
  async end(requestId: string): Promise<ServerMessage> {
    return this.next((m) => 'requestId' in m && m.requestId === requestId && ['request-done', 'cancelled', 'error'].includes(m.type));
  }

  /** A request's runs, built from the wire exactly as the browser builds them. */
  tracesFor(requestId: string): TraceDocument[] {
    const docs: TraceDocument[] = [];
    let builder: TraceBuilder | undefined;
    for (const m of this.messages) {
      if (!('requestId' in m) || m.requestId !== requestId) continue;
      if (m.type === 'run-start') builder = new TraceBuilder(m);
      if (m.type === 'run-events') builder!.addBatch(decodeBatch(m));
      if (m.type === 'run-end') docs.push(finishRun(builder!, m));
    }
    return docs;
  }

  async whenClosed(): Promise<{ code: number; reason: string }> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
    return this.closed;
  }

  close(): void {
    this.socket.close();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    waiters.forEach((wake) => wake());
  }
}

/** The HTTP status and body a refused upgrade got. */
export function refusedUpgrade(url: string, options: ClientOptions): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(liveUrlOf(url), options);
    socket.on('open', () => reject(new Error('the connection was accepted')));
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    socket.on('error', () => {});
  });
}
