// The banner for what stops live runs: the backend's WebSocket is closed (and when the next reconnect
// attempt is), or the backend reports Redis unreachable or not answering, with its message. Nothing shows while all is well.
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

function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

export function StatusBannerView({ connection, redis, onRetry }: Props) {
  const retryAt = connection.status === 'closed' ? connection.retryAt : null;
  const seconds = useSecondsUntil(retryAt);
  if (connection.status === 'closed') {
    return (
      <div className="banner banner-error" data-testid="banner" role="alert">
        <strong>Can’t reach the Pipescope backend</strong> — {connection.reason}. Live runs are paused.{' '}
        {seconds !== null && seconds > 0 ? `Reconnecting in ${seconds} s (attempt ${connection.attempt})…` : 'Reconnecting…'}{' '}
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
