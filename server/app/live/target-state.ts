// A target's state (redis-targets.ts) as the target-state message pages hear: starting, ready (in how
// long, what it is, its status) or failed (why), every text through the secret redactor; and a target a request may not name, in words.
import type { RedisStatus, TargetName, TargetStateMessage } from '../../../trace/protocol/live-protocol.ts';
import type { RedisTargets, TargetChange } from '../../redis/redis-targets.ts';
import type { Redactor } from '../access/secret-redactor.ts';

export function targetStateMessage(change: TargetChange, redis: RedisStatus | undefined, redact: Redactor): TargetStateMessage {
  const message: TargetStateMessage = { type: 'target-state', target: change.target, state: change.phase };
  if (change.readyMs !== undefined) message.readyMs = Math.round(change.readyMs);
  if (change.message !== undefined) message.message = redact(change.message);
  if (redis) message.redis = redis.message ? { ...redis, message: redact(redis.message) } : redis;
  return message;
}

/** Why a request may not name this target (undefined: it may): a user's Redis is the only one, and says so. */
export function targetRefusal(targets: RedisTargets, target: TargetName): string | undefined {
  if (targets.isOffered(target)) return undefined;
  const address = targets.primary.session.target.address;
  return `target ${target}: this backend measures the Redis given to it (${address}, --redis-url), the only target it offers; start Pipescope without --redis-url to choose between its private Redis and its private Redis Cluster.`;
}
