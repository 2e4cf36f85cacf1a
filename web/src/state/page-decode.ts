// Decoding on the page itself, for where no worker can start (jsdom in unit tests, a Content-Security-Policy
// without worker-src blob:). The decoding code is loaded only then, as a chunk of its own, so the app's
// bundle does not carry a second copy of what the worker holds. The <pipescope-player> build swaps this
// module for player/player-page-decode.ts (vite.player.config.ts): one classic script cannot split.
import type { PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import type { FileBody } from '../base/gzip-text.ts';

/** The document a file holds, decoded on the main thread; rejects like decodeBody (trace-decode.ts). */
export async function decodeOnPage(body: FileBody): Promise<PipescopeDocument> {
  const { decodeBody } = await import('./trace-decode.ts');
  return decodeBody(body);
}
