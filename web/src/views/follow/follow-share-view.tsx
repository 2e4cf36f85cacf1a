// The presenter's "Share with the room" control in the header: starts a follow session and shows its
// link — selected in a text field, since the clipboard is often unavailable over plain http on a LAN —
// with a Copy button, how many follow, "Stop sharing", and what attendees on other machines need.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { copyToClipboard } from '../../base/clipboard.ts';
import type { FollowShareStore } from '../../live/follow-share-store.ts';
import { followLink, isLoopbackPage } from '../../state/follow-link.ts';
import './follow-view.css';

export function FollowShareView({ store }: { store: FollowShareStore }) {
  const share = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const link = share.code ? followLink(window.location, share.code) : null;
  useEffect(() => {
    if (open && link) field.current?.select();
  }, [open, link]);

  const onShare = () => {
    setOpen(true);
    if (share.status === 'off') store.share();
  };
  const onCopy = async () => {
    if (!link) return;
    if (await copyToClipboard(link)) {
      setCopied('Copied.');
      return;
    }
    field.current?.select();
    setCopied('The clipboard is not available here (plain http): the link is selected, copy it with Ctrl+C or ⌘C.');
  };

  return (
    <div className="follow-share">
      <button type="button" className={`button follow-share-button${share.status === 'sharing' ? ' on' : ''}`} data-testid="follow-share" aria-expanded={open} onClick={() => (open ? setOpen(false) : onShare())}>
        {share.status === 'sharing' ? `Sharing · ${share.followers} following` : 'Share with the room'}
      </button>
      {open && (
        <div className="follow-share-panel" role="dialog" aria-label="Share with the room" data-testid="follow-share-panel">
          {share.status === 'starting' && <p>Starting a follow session…</p>}
          {share.status === 'off' && (
            <>
              {share.message && <p className="follow-share-problem" role="alert">{share.message}</p>}
              <button type="button" className="button primary" onClick={() => store.share()}>
                Share again
              </button>
            </>
          )}
          {share.status === 'sharing' && link && (
            <>
              <p>Attendees who open this link see your runs and your playback instead of running their own:</p>
              <div className="follow-share-link">
                <input ref={field} readOnly value={link} aria-label="Follow link" data-testid="follow-link" onFocus={(e) => e.currentTarget.select()} />
                <button type="button" className="button" onClick={() => void onCopy()}>
                  Copy
                </button>
              </div>
              {copied && <p className="follow-share-note" role="status">{copied}</p>}
              <p data-testid="follow-count" data-followers={share.followers}>
                {share.followers === 1 ? '1 person follows' : `${share.followers} people follow`}
                {share.maxFollowers ? ` (at most ${share.maxFollowers})` : ''}.
              </p>
              {isLoopbackPage(window.location.hostname) ? (
                <p className="follow-share-problem">
                  This page was opened as {window.location.hostname}, so the link only works on this machine. Start Pipescope with{' '}
                  <code>npm start -- --host 0.0.0.0</code> and open it by this machine’s network address or name before sharing.
                </p>
              ) : (
                <p className="follow-share-note">
                  Other machines must reach this server: start it with <code>npm start -- --host 0.0.0.0</code> (and{' '}
                  <code>--allow-host NAME</code> for a name it does not know).
                </p>
              )}
              <button type="button" className="button" data-testid="follow-stop" onClick={() => store.stop()}>
                Stop sharing
              </button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
