// What an attendee's page says while it follows: that it follows (and sends no runs), the presenter's
// run in progress, what the presenter is doing elsewhere, and — when it cannot follow — why, with a way
// out. data-position-us etc. mirror the page's PlaybackClock, which follows the presenter's.
import { useSyncExternalStore } from 'react';
import type { PlaybackClock } from '../../interaction/playback-clock.ts';
import type { FollowSnapshot } from '../../live/follow-store.ts';
import { RunProgressView } from '../run-form/run-progress-view.tsx';
import './follow-view.css';

const VIEW_NAMES = { run: 'single runs', sweep: 'the depth sweep', gallery: 'the published benchmarks' } as const;

export function FollowBannerView({ follow, playback }: { follow: FollowSnapshot; playback: PlaybackClock }) {
  const clock = useSyncExternalStore(playback.subscribe, playback.getSnapshot);
  const over = follow.status === 'ended' || follow.status === 'refused';
  const view = follow.display?.view ?? 'run';
  return (
    <>
      <div
        className={`banner ${over ? 'banner-warn' : 'follow-banner'}`}
        data-testid="follow-banner"
        data-follow-status={follow.status}
        data-position-us={clock.positionUs ?? ''}
        data-playing={clock.playing}
        data-speed={clock.speed}
        role={over ? 'alert' : 'status'}
      >
        {follow.status === 'refused' && <strong>Can’t follow this presenter</strong>}
        {follow.status === 'ended' && <strong>The presenter’s session has ended</strong>}
        {follow.status === 'joining' && <strong>Joining the presenter…</strong>}
        {follow.status === 'following' && <strong>Following the presenter</strong>}
        {follow.status === 'following' && ' — their runs and playback appear here as they happen; this page sends no runs of its own.'}
        {follow.message && <span data-testid="follow-message"> {follow.message}</span>}
        {follow.status === 'following' && view !== 'run' && <span> The presenter is showing {VIEW_NAMES[view]}; follow mode shows their single runs.</span>}
        {follow.status === 'following' && follow.traces.length === 0 && !follow.active && <span> Waiting for the presenter’s first run…</span>}{' '}
        <a href="./" className="link-button">
          {over ? 'Open Pipescope to run it yourself' : 'Leave'}
        </a>
      </div>
      {!over && follow.active && (
        <div className="follow-progress">
          <RunProgressView active={follow.active} />
        </div>
      )}
    </>
  );
}
