// Where files are decoded: in the decode worker (trace-decode-worker.ts) when one can start, else on the
// page with the same function (page-decode.ts; jsdom in unit tests, a host page whose Content-Security-Policy
// forbids blob: workers for <pipescope-player>). The worker is a script of its own (decode-worker-url.ts),
// fetched on the first file; a page on another origin than that script starts it through a one-line blob:
// worker that imports it, since a page may not start a worker from another origin's URL. A worker that
// dies (a file it could not hold) fails the files it was given with a plain sentence and is replaced for
// the next ones.
import { DecodeLimitError } from '../../../trace/format/decode-budget.ts';
import { TraceError } from '../../../trace/format/trace-builder.ts';
import type { PipescopeDocument } from '../../../trace/format/sweep-io.ts';
import type { FileBody } from '../base/gzip-text.ts';
import { decodeWorkerUrl } from './decode-worker-url.ts';
import { decodeOnPage } from './page-decode.ts';
import type { DecodeReply, DecodeRequest } from './trace-decode.ts';

interface Pending {
  body: FileBody;
  resolve: (document: PipescopeDocument) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
let workerUnavailable = false;
let nextId = 0;
const pending = new Map<number, Pending>();

/**
 * A worker running the script at `scriptUrl` (absolute): directly when it shares the page's origin, else
 * from a blob: whose one line imports it (classic workers may import scripts from any origin the page's
 * script-src allows, and the page loaded this code from there). Throws where no worker may start.
 */
function startWorker(scriptUrl: string): { started: Worker; release: () => void } {
  const options: WorkerOptions = { name: 'pipescope-decode' };
  if (new URL(scriptUrl).origin === location.origin) return { started: new Worker(scriptUrl, options), release: () => {} };
  const source = `importScripts(${JSON.stringify(scriptUrl)});`;
  const blobUrl = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const release = () => URL.revokeObjectURL(blobUrl);
  try {
    return { started: new Worker(blobUrl, options), release };
  } catch (error) {
    release();
    throw error;
  }
}

/** The decode worker, started on first use; null where workers cannot start. */
function decodeWorker(): Worker | null {
  if (worker || workerUnavailable) return worker;
  if (typeof Worker === 'undefined') {
    workerUnavailable = true;
    return null;
  }
  let release: () => void;
  try {
    ({ started: worker, release } = startWorker(decodeWorkerUrl()));
  } catch {
    workerUnavailable = true;
    return null;
  }
  const started = worker;
  let ready = false;
  // The blob: URL (other origins) is kept until the worker has loaded or failed, then revoked.
  started.onmessage = (event: MessageEvent<DecodeReply | { ready: true }>) => {
    if ('ready' in event.data) {
      ready = true;
      release();
    } else settle(event.data);
  };
  started.onerror = (event) => {
    event.preventDefault();
    release();
    // Never started (a Content-Security-Policy without worker-src blob:, its script unreachable): decode here from now on.
    if (!ready) fallBack(started);
    // Died on a file: fail what it held; the next file gets a new worker.
    else stop(started, 'the decoder stopped while reading it (the file needs more memory than the page allows).');
  };
  return started;
}

function settle(reply: DecodeReply): void {
  const waiting = pending.get(reply.id);
  if (!waiting) return;
  pending.delete(reply.id);
  if (reply.ok) waiting.resolve(reply.document);
  else waiting.reject(reply.kind === 'refused' ? new DecodeLimitError(reply.message) : new TraceError(reply.message));
}

function fallBack(failed: Worker): void {
  failed.terminate();
  worker = null;
  workerUnavailable = true;
  for (const [id, waiting] of pending) {
    pending.delete(id);
    decodeOnPage(waiting.body).then(waiting.resolve, waiting.reject);
  }
}

function stop(dead: Worker, message: string): void {
  dead.terminate();
  if (worker === dead) worker = null;
  for (const [id, waiting] of pending) {
    pending.delete(id);
    waiting.reject(new DecodeLimitError(message));
  }
}

/** The document a file holds, decoded and verified off the main thread where possible; rejects with a clear Error. */
export function decodeDocument(body: FileBody): Promise<PipescopeDocument> {
  const target = decodeWorker();
  if (!target) return decodeOnPage(body);
  return new Promise((resolve, reject) => {
    const request: DecodeRequest = { id: nextId++, body };
    pending.set(request.id, { body, resolve, reject });
    // Copied by structured clone (the page drops its copy once answered); kept here only to decode on the
    // page should the worker turn out unable to start.
    target.postMessage(request);
  });
}
