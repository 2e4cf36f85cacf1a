// The browser's end of the /live WebSocket: connects on the page's own origin, validates every
// incoming message with ServerMessageSchema (an invalid one is reported, never thrown), and
// reconnects with exponential backoff (0.5 s doubling to 10 s, ±20 % jitter) while saying so. When
// the backend closes with a reason (over its connection limit: 1013, try again later), the reason is
// what the banner says, and a 1013 keeps backing off rather than starting over at 0.5 s.
import { LIVE_PATH, parseServerFrame, type ClientMessage, type ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { FOLLOW_CODE_PATTERN } from '../../../trace/protocol/follow-protocol.ts';

export type ConnectionState =
  | { status: 'connecting'; attempt: number }
  | { status: 'open' }
  /** attempt: number of the next try since the last good connection; retryAt: epoch ms. */
  | { status: 'closed'; attempt: number; retryAt: number; reason: string };

export interface LiveClientEvents {
  onMessage(message: ServerMessage): void;
  onInvalidMessage(problem: string): void;
  onConnection(state: ConnectionState): void;
}

export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

const OPEN = 1;
/** WebSocket close code: the server is overloaded (here: too many connections); try again later. */
const TRY_AGAIN_LATER = 1013;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

/**
 * The page's own origin's /live. A page that follows a presenter (?follow=<code>) names the code here
 * too: the backend then counts the tab among the session's followers, whose connections are not the
 * runners' (a room of followers never fills the places of those who run).
 */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> & Partial<Pick<Location, 'search'>>): string {
  const base = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${LIVE_PATH}`;
  let code: string | null = null;
  try {
    code = new URLSearchParams(location.search ?? '').get('follow');
  } catch {
    code = null;
  }
  return code !== null && FOLLOW_CODE_PATTERN.test(code.trim()) ? `${base}?follow=${code.trim()}` : base;
}

export function backoffDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** Parses one frame's text; returns the message or a sentence saying what was wrong with it. */
export function parseServerMessage(text: unknown): { message: ServerMessage } | { problem: string } {
  const frame = parseServerFrame(typeof text === 'string' ? text : null);
  if ('value' in frame) return { message: frame.value };
  const { problem } = frame;
  if (problem.kind === 'binary') return { problem: 'The backend sent a binary frame; Pipescope expects JSON text.' };
  if (problem.kind === 'json') return { problem: 'The backend sent a message that is not valid JSON.' };
  return { problem: `The backend sent an invalid message: ${problem.issues}` };
}

export class LiveClient {
  private socket: SocketLike | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly url: string,
    private readonly events: LiveClientEvents,
    private readonly createSocket: (url: string) => SocketLike = (u) => new WebSocket(u),
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const socket = this.socket;
    this.socket = null;
    socket?.close();
  }

  get isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  send(message: ClientMessage): boolean {
    if (!this.socket || this.socket.readyState !== OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  /** Skips the wait and tries again now (the banner's "retry now"). */
  retryNow(): void {
    if (this.stopped || this.socket) return;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.connect();
  }

  private connect(): void {
    this.attempt++;
    this.events.onConnection({ status: 'connecting', attempt: this.attempt });
    let socket: SocketLike;
    try {
      socket = this.createSocket(this.url);
    } catch (error) {
      this.scheduleReconnect(`could not open ${this.url}: ${(error as Error).message}`);
      return;
    }
    this.socket = socket;
    const attemptsBefore = this.attempt;
    socket.onopen = () => {
      this.attempt = 0;
      this.events.onConnection({ status: 'open' });
    };
    socket.onmessage = (event) => {
      const result = parseServerMessage(event.data);
      if ('problem' in result) this.events.onInvalidMessage(result.problem);
      else this.events.onMessage(result.message);
    };
    socket.onerror = () => {
      // A close event always follows; the reconnect is scheduled there.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.stopped) return;
      const wasOpen = this.attempt === 0;
      if (event.code === TRY_AGAIN_LATER) this.attempt = attemptsBefore; // refused at once: keep backing off
      const reason = event.reason ? `the backend closed the live connection: ${event.reason}` : `the live connection closed (code ${event.code})`;
      this.scheduleReconnect(wasOpen || event.reason ? reason : `no answer at ${this.url}`);
    };
  }

  private scheduleReconnect(reason: string): void {
    if (this.stopped) return;
    // attempt = the number of the next try since the last good connection: 1, 2, 3…
    const attempt = this.attempt + 1;
    const delay = backoffDelayMs(attempt);
    this.events.onConnection({ status: 'closed', attempt, retryAt: Date.now() + delay, reason });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect();
    }, delay);
  }
}
