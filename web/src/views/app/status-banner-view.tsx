// The banner for what stops live runs: the backend's WebSocket is closed (an alert, said once, and beside
// it when the next reconnect attempt is, counted down to 0 and no further), or the backend reports Redis unreachable or not answering, with its message. Nothing shows while all is well.
import { useEffect, useState } from 'react';
import type { RedisStatus } from '../../../../trace/protocol/live-protocol.ts';
import type { ConnectionState } from '../../live/live-client.ts';
import { redisDownText } from '../../format/redis-down-text.ts';
import './status-banner-view.css';

interface Props {
  connection: ConnectionState;
  redis: RedisStatus | null;
  onRetry: () => void;
}

/** Whole seconds until `at` (epoch ms), ticking twice a second until it reaches 0, then no more. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= at) clearInterval(timer);
    }, 500);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function StatusBannerView({ connection, redis, onRetry }: Props) {
  const retryAt = connection.status === 'closed' ? connection.retryAt : null;
  const seconds = useSecondsUntil(retryAt);
  if (connection.status === 'closed') {
    return (
      <div className="banner banner-error" data-testid="banner">
        {/* The alert is what happened, said once; the countdown ticks beside it (inside, each tick would be re-announced). */}
        <span role="alert">
          <strong>Can’t reach the Pipescope backend</strong> — {connection.reason}. Live runs are paused.
        </span>{' '}
        <span data-testid="banner-retry">{seconds !== null && seconds > 0 ? `Reconnecting in ${seconds} s (attempt ${connection.attempt})…` : 'Reconnecting…'}</span>{' '}
        <button type="button" className="link-button" onClick={onRetry}>
          Retry now
        </button>
        <span className="banner-hint"> Opened trace files still display.</span>
      </div>
    );
  }
  if (connection.status === 'open' && redis && !redis.up) {
    const { headline, detail } = redisDownText(redis);
    return (
      <div className="banner banner-warn" data-testid="banner" role="alert">
        <strong>{headline}</strong> at {redis.address}
        {detail ? `: ${detail}` : ''}. Runs are paused until it answers; the backend checks again every few seconds.
      </div>
    );
  }
  return null;
}
