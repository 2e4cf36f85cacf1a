// Where the decode worker's script is, for <pipescope-player>: pipescope-decode-worker.js, beside the
// player's own script wherever a docs page loads it from (vite.player.config.ts builds both and puts this
// module in place of state/decode-worker-url.ts). The player's URL is read while its script runs, the one
// moment document.currentScript names it; a page that bundles the player itself falls back to its own URL.
import builtWorkerUrl from '../state/trace-decode-worker.ts?worker&url';

/** The worker script's file name (pipescope-decode-worker.js), beside pipescope-player.js. */
export const DECODE_WORKER_FILE = builtWorkerUrl.slice(builtWorkerUrl.lastIndexOf('/') + 1);

const playerScriptUrl =
  typeof document !== 'undefined' && document.currentScript instanceof HTMLScriptElement && document.currentScript.src
    ? document.currentScript.src
    : typeof location !== 'undefined' ? location.href : '';

/** The absolute URL of pipescope-decode-worker.js, beside the player's script. */
export function decodeWorkerUrl(): string {
  return new URL(DECODE_WORKER_FILE, playerScriptUrl).href;
}
