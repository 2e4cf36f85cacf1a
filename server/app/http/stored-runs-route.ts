// GET /stored-runs/<id>: a run kept for links (live/recent-runs.ts), read-only, in the compact form
// (trace/format/compact-trace.ts), gzip-encoded for a client that accepts it (every browser). It passes the
// HTTP gate's Host check like every request (access/http-gate.ts) and, like /live, refuses a page of
// another origin (access/origin-policy.ts checkOrigin): a kept run is for this Pipescope's own page and
// for tools that send no Origin (curl), not for any site the user happens to visit. An id no longer kept
// (or never) gets a 404 that says why, which the page shows.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { STORED_RUNS_PATH, isStoredId } from '../../../trace/protocol/stored-runs.ts';
import type { OriginPolicy } from '../access/origin-policy.ts';
import type { RefusalLog } from '../access/refusal-log.ts';
import type { RecentRuns } from '../live/recent-runs.ts';

/** The path's prefix, from the root: /stored-runs/. */
export const STORED_RUNS_PREFIX = `/${STORED_RUNS_PATH}`;

/** The 404's text: the id is not (or no longer) kept, and what keeps a run for good. */
export function notKeptText(recent: RecentRuns): string {
  return `No run with this id is kept here. This Pipescope keeps the last ${recent.bounds.maxRuns} runs it measured ` +
    `(at most ${Math.round(recent.bounds.maxBytes / 1024 / 1024)} MiB) while it runs, and forgets them when it stops; ` +
    'a run that should last is exported (Export → Trace (JSON)).\n';
}

/** True for a request this route answers. */
export const isStoredRunPath = (url: string | undefined): boolean => (url ?? '').startsWith(STORED_RUNS_PREFIX);

export function storedRunsHandler(recent: RecentRuns, policy: OriginPolicy, log: RefusalLog) {
  return (request: IncomingMessage, response: ServerResponse): void => {
    const refusal = policy.checkOrigin(request.headers.origin, request.headers.host, 'read the runs this Pipescope keeps');
    if (refusal) {
      log.note('stored-run-origin', `refused a stored run: ${refusal}`);
      response.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(`Forbidden: ${refusal}\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Method Not Allowed: kept runs are read-only.\n');
      return;
    }
    const id = new URL(request.url ?? '/', 'http://localhost').pathname.slice(STORED_RUNS_PREFIX.length);
    const bytes = isStoredId(id) ? recent.get(id) : undefined;
    // Never cached: the id names a run only while it is kept, and the link is as private as its holder keeps it.
    const common = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };
    if (!bytes) {
      response.writeHead(404, { ...common, 'content-type': 'text/plain; charset=utf-8' }).end(notKeptText(recent));
      return;
    }
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
    const body = gzip ? bytes : gunzipSync(bytes);
    response.writeHead(200, {
      ...common,
      'content-type': 'application/json; charset=utf-8',
      'content-length': body.length,
      vary: 'accept-encoding',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    if (request.method === 'HEAD') response.end();
    else response.end(body);
  };
}
