// Follow mode for the page: a page opened without ?follow= may share (the presenter: its display state is
// broadcast while it shares); a page opened with it follows (the attendee: the presenter's display state is
// mirrored into its PlaybackClock, view and scale). Returns the attendee's follow snapshot, or null on a
// presenter's page. main.tsx decides which from the URL; app-view.tsx calls this once. The display keys
// go out as the page's URL holds them (read, so a change a script made to it counts too); the mirrored
// ones come back into it through the page store.
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { PlaybackClock } from '../../interaction/playback-clock.ts';
import type { FollowShareStore } from '../../live/follow-share-store.ts';
import type { FollowSnapshot, FollowStore } from '../../live/follow-store.ts';
import { DisplayBroadcaster, DisplayMirror, type PageDisplay } from '../../state/follow-display.ts';
import { displayKeysOf, displayWithKeys } from '../../url/display-link.ts';
import type { PageUrl } from '../../url/page-url.ts';

export type FollowMode = { role: 'presenter'; store: FollowShareStore } | { role: 'follower'; store: FollowStore };

const NONE = { subscribe: () => () => {}, getSnapshot: () => null };

export function useFollowMode(
  follow: FollowMode,
  playback: PlaybackClock,
  url: PageUrl,
  page: PageDisplay,
  setPage: (page: PageDisplay) => void,
): FollowSnapshot | null {
  const { role, store } = follow;
  useEffect(() => store.attach(), [store]);

  // Presenter: the display state goes out while sharing, and at once when sharing starts.
  const share = role === 'presenter' ? (store as FollowShareStore) : null;
  const broadcaster = useMemo(
    () => (share ? new DisplayBroadcaster(playback, (display) => share.sendDisplay(display), () => displayKeysOf(url.read().display)) : null),
    [share, playback, url],
  );
  useEffect(() => broadcaster?.start(), [broadcaster]);
  const { view, scale } = page;
  useEffect(() => broadcaster?.setPage({ view, scale }), [broadcaster, view, scale]);
  const sharing = useSyncExternalStore(share?.subscribe ?? NONE.subscribe, () => share?.getSnapshot().status === 'sharing');
  useEffect(() => {
    if (sharing) broadcaster?.resend();
  }, [sharing, broadcaster]);

  // Attendee: the presenter's display state is applied as it comes.
  const followStore = role === 'follower' ? (store as FollowStore) : null;
  const snapshot = useSyncExternalStore(followStore?.subscribe ?? NONE.subscribe, followStore?.getSnapshot ?? NONE.getSnapshot);
  const mirror = useMemo(
    () => (followStore ? new DisplayMirror(playback, setPage, (keys) => url.update({ display: displayWithKeys(url.link.display, keys) })) : null),
    [followStore, playback, setPage, url],
  );
  useEffect(() => mirror?.start(), [mirror]);
  // The timeline's end is set by the results view from the presenter's runs on screen (its effects run
  // before this one), so a mirrored playhead is clamped to the same timeline as the presenter's.
  const display = snapshot?.display ?? null;
  useEffect(() => {
    if (display) mirror?.apply(display);
  }, [mirror, display]);
  return snapshot;
}
