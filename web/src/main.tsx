// Entry point: one live channel (the WebSocket) for the page, and the run store, the sweep store and
// follow mode's store (sharing, or following with ?follow=) that hear it, and the page's URL store
// (url/page-url.ts: the hash's one reader and writer, which also gives the query), rendered by AppView. The frame scheduler publishes data-render-pending on <html> from the first frame on.
// Traces named by ?trace= (downloading since public/prefetch.js started them) are verified and put in the
// store before React's first render when they are already here, so an embed draws in one go.
// A link naming runs the backend keeps (stored=) loads those instead, through the same decoder (state/stored-runs.ts).
// The run history (IndexedDB) opens beside them; without either it puts back the runs on screen before a reload.
// The static site (base/site-mode.ts: npm run build:static) gets an OfflineChannel instead, which never opens a
// WebSocket, no follow session, and its landing page (the recorded runs) rather than the runs restored.
import './base/zod-without-eval.ts';
// The page's stylesheet (theme, base rules, page grid) first: each view's own, which it imports, comes after it.
import './app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LiveChannel } from './live/live-channel.ts';
import { OfflineChannel } from './live/offline-channel.ts';
import { STATIC_SITE } from './base/site-mode.ts';
import { RunStore } from './live/run-store.ts';
import { ObserveStore } from './live/observe-store.ts';
import { SweepStore } from './live/sweep-store.ts';
import { publishPendingOnPage } from './base/frame-scheduler.ts';
import { showLoaded } from './state/show-loaded.ts';
import { loadTraceUrls, traceUrlsFromSearch } from './state/trace-files.ts';
import { AppView } from './views/app/app-view.tsx';
import { HistoryStore } from './state/history-store.ts';
import { openHistoryDb } from './state/history-db.ts';
import { FollowShareStore } from './live/follow-share-store.ts';
import { FollowStore } from './live/follow-store.ts';
import { followParam } from './state/follow-link.ts';
import type { FollowMode } from './views/follow/use-follow-mode.ts';
import { PageUrl } from './url/page-url.ts';
import { STATIC_STORED_TEXT, showStoredLink } from './state/stored-runs.ts';
import type { TraceDocument } from '../../trace/format/trace-format.ts';

publishPendingOnPage();
const channel = STATIC_SITE ? new OfflineChannel() : new LiveChannel();
const store = new RunStore(channel);
const sweepStore = new SweepStore(channel);
const observe = STATIC_SITE ? undefined : new ObserveStore(channel, store);
const history = new HistoryStore(openHistoryDb(), store, sweepStore);
const url = new PageUrl();
const urls = traceUrlsFromSearch(url.search);
// ?follow=<code>: this page follows a presenter; otherwise it may share with the room.
const followLinkParam = STATIC_SITE ? null : followParam(url.search);
// stored=: runs the backend keeps for links (state/stored-runs.ts). They are what was on screen when the link
// was copied, so they win over a ?trace= left in the query from before. The static site keeps none: it says so.
const storedIds = followLinkParam === null ? (url.link.stored ?? []) : [];
const fromStore = storedIds.length > 0 && !STATIC_SITE;
const recordLinked = (docs: readonly TraceDocument[], origins: readonly string[]) => history.record(docs, origins, 'url');
if (urls.length > 0 && !fromStore) store.setMessage({ kind: 'info', text: `Loading ${urls.length === 1 ? 'a trace' : `${urls.length} traces`} from the URL…` });
// A reload of this tab puts back what it had on screen from its own history (complete, and kept for good);
// only a page that has no such history (the link's recipient) asks the backend for the stored runs.
const urlLoad =
  fromStore ? history.restore().then((restored) => (restored ? null : showStoredLink(storedIds, store, sweepStore, recordLinked)), () => showStoredLink(storedIds, store, sweepStore, recordLinked))
  : urls.length > 0 ? loadTraceUrls(urls).then((result) => showLoaded(result, 'url', store, sweepStore, recordLinked))
  : null;
if (STATIC_SITE && storedIds.length > 0) store.setMessage({ kind: 'info', text: STATIC_STORED_TEXT });
const follow: FollowMode = followLinkParam === null
  ? { role: 'presenter', store: new FollowShareStore(channel) }
  : { role: 'follower', store: 'code' in followLinkParam ? new FollowStore(channel, followLinkParam.code) : new FollowStore(channel, '', undefined, followLinkParam.problem) };
// A follower's page shows the presenter's runs, not the ones it had on screen before.
// The static site opens on its list of recorded runs; its History tab still shows them.
// Whether it opened with nothing to show: then the first screen shows the default run (views/app/use-first-visit.ts).
const openedEmpty = urls.length === 0 && !fromStore && followLinkParam === null && !STATIC_SITE ? history.restore().then((restored) => !restored, () => true) : null;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppView channel={channel} store={store} sweepStore={sweepStore} history={history} url={url} urlLoad={urlLoad} follow={follow} offline={STATIC_SITE} observe={observe} openedEmpty={openedEmpty} />
  </StrictMode>,
);
