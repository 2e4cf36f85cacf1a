// Words for a Redis the backend cannot use, from its status: "not answering" when the backend's PING
// went unanswered (a stopped or overloaded Redis: its connection still open, nothing coming back),
// "unreachable" otherwise (refused, closed, a failed sign-in…). The backend's message says which; its
// own address is said by the banner, so it is not repeated. Pure, unit-tested.
import type { RedisStatus } from '../../../trace/protocol/live-protocol.ts';

export interface RedisDownText {
  /** "Redis is not answering" or "Redis is unreachable". */
  headline: string;
  /** What the backend saw, without the address the banner already shows, or undefined. */
  detail: string | undefined;
}

/** The backend's words for an unanswered PING (redis-session.ts status()). */
const NOT_ANSWERING = /^Redis at \S+ is not answering: (.+)$/s;

export function redisDownText(redis: Pick<RedisStatus, 'message'>): RedisDownText {
  const silent = redis.message === undefined ? null : NOT_ANSWERING.exec(redis.message);
  if (silent) return { headline: 'Redis is not answering', detail: silent[1] };
  return { headline: 'Redis is unreachable', detail: redis.message };
}
