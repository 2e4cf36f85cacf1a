// The follow sessions of this server, by code. A code is 16 random bytes (128 bits) in base64url, so
// one cannot be guessed; there are at most --max-follow-sessions at once, and at most
// --max-follow-sessions-per-address from one client address. A session lives as long as its
// presenter shares (follow-role.ts ends it on "stop sharing" or when the presenter's tab closes).
import { randomBytes } from 'node:crypto';
import { FOLLOW_CODE_BYTES } from '../../../trace/protocol/follow-protocol.ts';
import type { ClientLimits } from '../access/client-limits.ts';
import { FollowSession } from './follow-session.ts';
import type { Redactor } from '../access/secret-redactor.ts';

export class FollowHub {
  private readonly sessions = new Map<string, FollowSession>();
  /** Each session's presenter's address. */
  private readonly addresses = new Map<FollowSession, string>();

  constructor(
    private readonly limits: ClientLimits,
    private readonly redact: Redactor,
  ) {}

  /** A new session for a presenter at `address`, or the sentence saying why not. */
  start(address: string, onCount: (followers: number) => void): FollowSession | string {
    if (this.sessions.size >= this.limits.maxFollowSessions) {
      return `Too many presenters are sharing: at most ${this.limits.maxFollowSessions} at once (--max-follow-sessions). Try again when one stops.`;
    }
    const fromAddress = [...this.addresses.values()].filter((other) => other === address).length;
    if (fromAddress >= this.limits.maxFollowSessionsPerAddress) {
      return `Too many sessions shared from your address: at most ${this.limits.maxFollowSessionsPerAddress} at once (--max-follow-sessions-per-address). Stop one first.`;
    }
    let code: string;
    do code = randomBytes(FOLLOW_CODE_BYTES).toString('base64url');
    while (this.sessions.has(code));
    const session = new FollowSession(code, this.limits, this.redact, onCount);
    this.sessions.set(code, session);
    this.addresses.set(session, address);
    return session;
  }

  find(code: string): FollowSession | null {
    return this.sessions.get(code) ?? null;
  }

  /** Ends the session, tells its followers why, and forgets its code. */
  end(session: FollowSession, ...why: Parameters<FollowSession['end']>): void {
    session.end(...why);
    this.sessions.delete(session.code);
    this.addresses.delete(session);
  }

  get maxFollowers(): number {
    return this.limits.maxFollowersPerSession;
  }

  get size(): number {
    return this.sessions.size;
  }
}
