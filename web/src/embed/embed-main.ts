// The embed page (embed/index.html, for an iframe): one <pipescope-player> filling the page, configured
// from the page's URL (state/embed-params.ts; several trace= make a compare in one player), and nothing
// else — no run form, no banner, no WebSocket. It speaks protocol v1 (trace/protocol/embed-protocol.ts) with the
// page that frames it: `ready` once drawn (and in answer to ping), `height` whenever the document's height
// changes, `state` as playback moves (the player's ≤ 10/s events), `error`. It obeys ping/play/pause/seek/
// load-trace/set-theme from window.parent only, and only from `origin` when that parameter is given; its
// own messages go to that origin, or to '*' (nothing in them is private). Not framed: no messages at all.
// Any site may frame it, so it tells its host nothing read from a response: a failed load is posted as
// "Could not load the trace at URL." (the player shows the detail, which a cross-origin host cannot read),
// and load-trace accepts only what `?trace=` could name anyway (traceUrlAllowed), fetched the same way.
import '../player/pipescope-player.ts';
import './embed.css';
import { embedParamsFromSearch, type EmbedParams } from '../state/embed-params.ts';
import {
  errorMessage, heightMessage, readHostMessage, readyMessage, stateMessage, type EmbedMessage, type EmbedReady, type EmbedState,
} from '../../../trace/protocol/embed-protocol.ts';
import { PLAYER_TAG } from '../player/player-element.ts';

const params = embedParamsFromSearch(window.location.search);
const player = document.createElement(PLAYER_TAG);
for (const [name, value] of Object.entries(playerAttributes(params))) if (value !== null) player.setAttribute(name, value);
document.body.append(player);

const framed = window.parent !== window;
let lastReady: EmbedReady | null = null;
let lastHeight = -1;

function post(message: EmbedMessage): void {
  if (framed) window.parent.postMessage(message, params.origin ?? '*');
}

player.addEventListener('pipescope-ready', (event) => {
  lastReady = (event as CustomEvent<EmbedReady>).detail;
  post(readyMessage(lastReady));
  postHeight();
});
player.addEventListener('pipescope-state', (event) => post(stateMessage((event as CustomEvent<EmbedState>).detail)));
player.addEventListener('pipescope-error', (event) => post(errorMessage((event as CustomEvent<{ message: string; publicMessage?: string }>).detail.publicMessage ?? 'Could not load the trace.')));

/** A URL a host may ask for by message: one `?trace=` could name (http or https, relative to this page), nothing else. */
function traceUrlAllowed(url: string): boolean {
  try {
    const protocol = new URL(url, window.location.href).protocol;
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The document's height in CSS px: the body's (margin 0), which does not grow with the iframe as the root's scrollHeight would. */
function postHeight(): void {
  const height = Math.ceil(document.body.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  post(heightMessage(height));
}
if (typeof ResizeObserver === 'function') new ResizeObserver(postHeight).observe(document.body);
postHeight();

window.addEventListener('message', (event: MessageEvent) => {
  // Only the framing page, and only from the origin named, if one was.
  if (!framed || event.source !== window.parent) return;
  if (params.origin !== null && event.origin !== params.origin) return;
  const read = readHostMessage(event.data);
  if (!read.ok) {
    post(errorMessage(read.error));
    return;
  }
  const command = read.command;
  switch (command.type) {
    case 'ping':
      if (lastReady) post(readyMessage(lastReady));
      if (player.playbackState) post(stateMessage(player.playbackState));
      lastHeight = -1;
      postHeight();
      break;
    case 'play':
      player.play();
      break;
    case 'pause':
      player.pause();
      break;
    case 'seek':
      player.seek(command.t);
      break;
    case 'load-trace': {
      const refused = command.urls.filter((url) => !traceUrlAllowed(url));
      if (refused.length > 0) {
        post(errorMessage(`load-trace takes http: or https: URLs (or URLs relative to the embed), as ?trace= does; not ${refused.map((u) => JSON.stringify(u.slice(0, 64))).join(', ')}.`));
        break;
      }
      lastReady = null;
      player.load(command.urls);
      break;
    }
    case 'set-theme':
      player.setAttribute('theme', command.theme);
      break;
  }
});

/** The player's attributes for the page's parameters (src: the URLs, whitespace inside one escaped). */
function playerAttributes(p: EmbedParams): Record<string, string | null> {
  const flag = (on: boolean) => (on ? '' : null);
  return {
    src: p.traceUrls.map((u) => u.replace(/\s/g, (c) => encodeURIComponent(c))).join(' '),
    theme: p.theme,
    panels: p.panels.join(','),
    controls: p.controls ? null : 'false',
    autoplay: flag(p.autoplay),
    loop: flag(p.loop),
    lazy: flag(p.lazy),
    speed: p.speed === null ? null : String(p.speed),
    t: p.t === null ? null : String(p.t),
  };
}
