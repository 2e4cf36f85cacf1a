// What one connection is in follow mode: nothing, the presenter of a session, or a follower of one. It
// answers the follow messages (start, stop, display, join) and, while presenting, lets the connection's
// run requests be relayed. A follower sends no runs (live-connection.ts refuses them) and can neither stop
// nor steer the session it follows: only the presenter's own connection holds its session. The
// presenter's tab closing ends the session; a follower's closing only leaves it.
import type { WebSocket } from 'ws';
import type { ClientMessage, ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RunSpec } from '../../../trace/format/run-request.ts';
import type { FollowHub } from './follow-hub.ts';
import type { FollowSession } from './follow-session.ts';

type Send = (message: ServerMessage) => void;
export type FollowClientMessage = Extract<ClientMessage, { type: `follow-${string}` }>;

export function isFollowMessage(message: ClientMessage): message is FollowClientMessage {
  return message.type.startsWith('follow-');
}

export const UNKNOWN_CODE =
  'No follow session has this code: the presenter has stopped sharing, or the link is incomplete. Ask the presenter for the link again.';

export class FollowRole {
  private presenting: FollowSession | null = null;
  private following: FollowSession | null = null;

  constructor(
    private readonly socket: WebSocket,
    private readonly send: Send,
    private readonly hub: FollowHub,
    /** The client's address: sessions shared from one address are limited. */
    private readonly address: string,
  ) {}

  get isFollowing(): boolean {
    return this.following !== null;
  }

  handle(message: FollowClientMessage): void {
    switch (message.type) {
      case 'follow-start': {
        if (this.following) return this.refuse('This tab follows a presenter; it cannot share a session of its own.');
        if (this.presenting) {
          return this.send({ type: 'follow-started', code: this.presenting.code, maxFollowers: this.hub.maxFollowers });
        }
        const session = this.hub.start(this.address, (followers) => this.send({ type: 'follow-count', followers }));
        if (typeof session === 'string') return this.refuse(session);
        this.presenting = session;
        return this.send({ type: 'follow-started', code: session.code, maxFollowers: this.hub.maxFollowers });
      }
      case 'follow-stop':
        return this.stopPresenting('stopped', 'The presenter stopped sharing.');
      case 'follow-display':
        this.presenting?.setDisplay(message.display); // after a stop, a late update is dropped
        return;
      case 'follow-join': {
        if (this.presenting) return this.refuse('This tab is sharing its own session; open the follow link in another tab.');
        this.following?.leave(this.socket); // a second join (after being dropped, say) starts over
        this.following = null;
        const session = this.hub.find(message.code);
        if (!session) return this.refuse(UNKNOWN_CODE);
        this.following = session; // before join: the replay is sent at once
        const refusal = session.join(this.socket);
        if (refusal) {
          this.following = null;
          this.refuse(refusal);
        }
        return;
      }
    }
  }

  /** How a run request accepted on this connection sends: to it, and while presenting to the followers too. */
  requestSender(requestId: string, spec: RunSpec, send: Send): Send {
    const session = this.presenting;
    if (!session) return send;
    session.beginRequest(requestId, spec);
    return (message) => {
      send(message);
      session.relay(message);
    };
  }

  /** The connection closed. */
  close(): void {
    this.stopPresenting('presenter-left', 'The presenter closed their page or lost their connection; the session has ended.');
    this.following?.leave(this.socket);
    this.following = null;
  }

  private stopPresenting(...why: Parameters<FollowSession['end']>): void {
    if (!this.presenting) return;
    this.hub.end(this.presenting, ...why);
    this.presenting = null;
  }

  private refuse(message: string): void {
    this.send({ type: 'follow-error', message });
  }
}
