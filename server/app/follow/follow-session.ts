// One presenter's follow session: its followers' sockets, the presenter's run requests relayed to them
// (each message serialised once, every string through the secret redactor, the same Buffer sent to all),
// the replay for late joiners (follow-replay.ts) and the latest display state, relayed at most
// DISPLAY_UPDATES_PER_SECOND (the latest always arrives). A follower that leaves more than the bound unread
// (ws bufferedAmount, beyond what its join replay put there) is dropped and told why, so a slow laptop on
// the room's Wi-Fi cannot make the server's memory grow.
import type { WebSocket } from 'ws';
import { DISPLAY_UPDATES_PER_SECOND, type FollowDisplay, type FollowEndReason } from '../../../trace/protocol/follow-protocol.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import type { ClientLimits } from '../access/client-limits.ts';
import { FollowReplay } from './follow-replay.ts';
import { redactStrings, type Redactor } from '../access/secret-redactor.ts';

const DISPLAY_INTERVAL_MS = 1000 / DISPLAY_UPDATES_PER_SECOND;

interface Follower {
  /** Bytes this follower may leave unread: the bound plus the replay it was sent on joining. */
  allowance: number;
  /** A request whose start this follower missed (its replay was too big): its messages are not sent to it. */
  skip: string | null;
}

type FollowLimits = Pick<ClientLimits, 'maxFollowersPerSession' | 'maxFollowerUnreadBytes' | 'maxFollowReplayBytes'>;

export class FollowSession {
  private readonly followers = new Map<WebSocket, Follower>();
  /** The presenter's run requests begun while sharing: only their messages are relayed. */
  private readonly requests = new Set<string>();
  private readonly replay: FollowReplay;
  private display: Buffer | null = null;
  private pendingDisplay: Buffer | null = null;
  private lastDisplayMs = -Infinity;
  private displayTimer: ReturnType<typeof setTimeout> | null = null;
  private ended = false;

  constructor(
    readonly code: string,
    private readonly limits: FollowLimits,
    private readonly redact: Redactor,
    /** Tells the presenter how many follow now. */
    private readonly onCount: (followers: number) => void,
  ) {
    this.replay = new FollowReplay(limits.maxFollowReplayBytes);
  }

  get followerCount(): number {
    return this.followers.size;
  }

  /** Adds a follower and sends it the replay and the display state; returns why not, or null. */
  join(socket: WebSocket): string | null {
    if (this.ended) return 'This follow session has ended.';
    if (this.followers.has(socket)) return 'This tab already follows this session.';
    if (this.followers.size >= this.limits.maxFollowersPerSession) {
      return `This session is full: at most ${this.limits.maxFollowersPerSession} may follow one presenter (--max-followers). Ask the presenter, or try later.`;
    }
    const replay = this.replay.state;
    const follower: Follower = { allowance: this.limits.maxFollowerUnreadBytes + this.replay.keptBytes, skip: replay === 'too-big' ? this.replay.latestRequestId : null };
    this.followers.set(socket, follower);
    socket.send(JSON.stringify({ type: 'follow-joined', replay } satisfies ServerMessage));
    for (const frame of this.replay.kept) socket.send(frame, { binary: false });
    if (this.display) socket.send(this.display, { binary: false });
    this.onCount(this.followers.size);
    return null;
  }

  leave(socket: WebSocket): void {
    if (this.followers.delete(socket) && !this.ended) this.onCount(this.followers.size);
  }

  /** The presenter's run request was accepted: followers are told its spec; its messages follow. */
  beginRequest(requestId: string, spec: RunSpec): void {
    if (this.ended) return;
    this.requests.add(requestId);
    const frame = this.frame({ type: 'follow-request', requestId, spec });
    this.replay.begin(requestId, frame);
    this.broadcast(frame, requestId);
  }

  /** One message the presenter was sent: relayed when it belongs to a request begun while sharing. */
  relay(message: ServerMessage): void {
    if (this.ended || !('requestId' in message) || message.requestId === undefined || !this.requests.has(message.requestId)) return;
    const frame = this.frame(message);
    this.replay.add(message.requestId, frame);
    this.broadcast(frame, message.requestId);
    if (message.type === 'request-done' || message.type === 'cancelled' || message.type === 'error') this.requests.delete(message.requestId);
  }

  /** The presenter's display state; relayed now, or at the end of the current interval (the latest wins). */
  setDisplay(display: FollowDisplay, nowMs = Date.now()): void {
    if (this.ended) return;
    this.pendingDisplay = this.frame({ type: 'follow-display', display });
    const wait = this.lastDisplayMs + DISPLAY_INTERVAL_MS - nowMs;
    if (wait <= 0) this.flushDisplay(nowMs);
    else if (this.displayTimer === null) {
      this.displayTimer = setTimeout(() => {
        this.displayTimer = null;
        this.flushDisplay(Date.now());
      }, wait);
      this.displayTimer.unref();
    }
  }

  /** Ends the session for every follower, saying why; later calls do nothing. */
  end(reason: FollowEndReason, message: string): void {
    if (this.ended) return;
    this.ended = true;
    if (this.displayTimer !== null) clearTimeout(this.displayTimer);
    const frame = this.frame({ type: 'follow-ended', reason, message });
    for (const socket of this.followers.keys()) if (socket.readyState === socket.OPEN) socket.send(frame, { binary: false });
    this.followers.clear();
    this.requests.clear();
  }

  private flushDisplay(nowMs: number): void {
    if (!this.pendingDisplay || this.ended) return;
    this.display = this.pendingDisplay;
    this.pendingDisplay = null;
    this.lastDisplayMs = nowMs;
    this.broadcast(this.display, null);
  }

  private broadcast(frame: Buffer, requestId: string | null): void {
    let dropped = false;
    for (const [socket, follower] of this.followers) {
      if (socket.readyState !== socket.OPEN) continue;
      if (requestId !== null && follower.skip === requestId) continue;
      if (socket.bufferedAmount > follower.allowance) {
        this.followers.delete(socket);
        dropped = true;
        const text = `Your connection fell too far behind the presenter (over ${mib(this.limits.maxFollowerUnreadBytes)} unread, --max-follower-unread-bytes), ` +
          'so the server stopped sending you their runs. Reload the follow link to catch up.';
        socket.send(this.frame({ type: 'follow-ended', reason: 'too-slow', message: text }), { binary: false });
        continue;
      }
      socket.send(frame, { binary: false });
    }
    if (dropped) this.onCount(this.followers.size);
  }

  /** A message as followers get it: every string redacted, serialised once. */
  private frame(message: ServerMessage): Buffer {
    return Buffer.from(JSON.stringify(redactStrings(message, this.redact)));
  }
}

const mib = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 1 })} MiB` : `${bytes.toLocaleString('en-US')} bytes`);
