// Decoding on the page for <pipescope-player>, where no worker can start (a host page whose
// Content-Security-Policy forbids blob: workers): the worker's own script (pipescope-decode-worker.js) is
// loaded once as a classic <script>, which on a page hands over decodeBody instead of listening for
// messages (trace-decode-worker.ts). The player's one script thus carries no copy of the decoding code.
// vite.player.config.ts puts this module in place of state/page-decode.ts.
import type { PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import type { FileBody } from '../base/gzip-text.ts';
import { PAGE_DECODER_KEY } from '../state/page-decoder-key.ts';
import { decodeWorkerUrl } from './player-decode-worker-url.ts';

type DecodeBody = (body: FileBody) => Promise<PipescopeDocument>;

let loading: Promise<DecodeBody> | null = null;

function pageDecoder(): DecodeBody | undefined {
  return (globalThis as Record<symbol, unknown>)[PAGE_DECODER_KEY] as DecodeBody | undefined;
}

function loadPageDecoder(): Promise<DecodeBody> {
  return new Promise((resolve, reject) => {
    const ready = pageDecoder();
    if (ready) return resolve(ready);
    const script = document.createElement('script');
    script.src = decodeWorkerUrl();
    script.async = true;
    script.onload = () => {
      script.remove();
      const loaded = pageDecoder();
      if (loaded) resolve(loaded);
      else reject(new Error(`the decoder did not load from ${script.src}.`));
    };
    script.onerror = () => {
      script.remove();
      reject(new Error(`the decoder could not be loaded from ${script.src}.`));
    };
    document.head.append(script);
  });
}

/** The document a file holds, decoded on the main thread; rejects like decodeBody (trace-decode.ts). */
export async function decodeOnPage(body: FileBody): Promise<PipescopeDocument> {
  if (!loading) {
    loading = loadPageDecoder();
    // A failed load is tried again with the next file (the network may have been down).
    loading.catch(() => {
      loading = null;
    });
  }
  return (await loading)(body);
}
