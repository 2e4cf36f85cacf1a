// The decode worker: files are gunzipped, parsed and verified here, off the page's main thread, so that a
// hostile or huge file can at worst end this worker, never freeze or crash the tab (trace-decoder.ts
// starts it, and stops it when it misbehaves). One request at a time, in order; each answered once.
// Built as a classic script of its own (decode-worker-url.ts; pipescope-decode-worker.js beside the
// <pipescope-player> script). That script may also be loaded on a page with no worker (player-page-decode.ts):
// there it only hands decodeBody to the page (page-decoder-key.ts).
import '../base/zod-without-eval.ts';
import { PAGE_DECODER_KEY } from './page-decoder-key.ts';
import { decodeBody, decodeReply, type DecodeRequest } from './trace-decode.ts';

interface WorkerScope {
  onmessage: ((event: MessageEvent<DecodeRequest>) => void) | null;
  postMessage: (message: unknown) => void;
}

if ('importScripts' in globalThis) {
  const scope = globalThis as unknown as WorkerScope;
  let queue: Promise<void> = Promise.resolve();
  scope.onmessage = (event) => {
    queue = queue.then(async () => scope.postMessage(await decodeReply(event.data)));
  };
  // Started: from now on an error means this worker died, not that it could not start (trace-decoder.ts).
  scope.postMessage({ ready: true });
} else {
  (globalThis as Record<symbol, unknown>)[PAGE_DECODER_KEY] = decodeBody;
}
