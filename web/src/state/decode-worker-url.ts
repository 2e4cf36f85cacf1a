// Where the decode worker's script is, for the app and its embed page: Vite builds trace-decode-worker.ts
// into a file of its own under assets/ (same origin as the page), loaded only when a file is decoded.
// The <pipescope-player> build swaps this module for player/player-decode-worker-url.ts
// (vite.player.config.ts), since that script runs on other sites and finds its worker beside itself.
import workerUrl from './trace-decode-worker.ts?worker&url';

/** The absolute URL of the decode worker's classic script. */
export function decodeWorkerUrl(): string {
  return new URL(workerUrl, import.meta.url).href;
}
