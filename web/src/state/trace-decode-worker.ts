// The decode worker: files are gunzipped, parsed and verified here, off the page's main thread, so that a
// hostile or huge file can at worst end this worker, never freeze or crash the tab (trace-decoder.ts
// starts it, and stops it when it misbehaves). One request at a time, in order; each answered once.
import { decodeReply, type DecodeRequest } from './trace-decode.ts';

const scope = self as unknown as { onmessage: ((event: MessageEvent<DecodeRequest>) => void) | null; postMessage: (message: unknown) => void };
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (event) => {
  queue = queue.then(async () => scope.postMessage(await decodeReply(event.data)));
};
// Started: from now on an error means this worker died, not that it could not start (trace-decoder.ts).
scope.postMessage({ ready: true });
