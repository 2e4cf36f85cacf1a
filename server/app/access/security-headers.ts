// Headers on every HTTP response, errors and 304s included. The Content-Security-Policy allows only
// our own scripts (index.html has no inline script: its prefetch is public/prefetch.js) and workers (the trace
// decoder's, a script of its own on this origin: web/src/state/trace-decoder.ts; no blob: needed), our own
// styles (React and D3 set style properties through the CSSOM, which CSP does not restrict), traces
// fetched from here or any https: site (?trace= links), and the live WebSocket back to this host.
// frame-ancestors decides who may frame the app: by default only itself, because the live app starts
// runs against your Redis and a framing page could trick clicks on it (clickjacking); a docs author who
// embeds it names the docs site with --frame-ancestors. The embed player (/embed/, the page docs sites
// put in an iframe) may be framed by any site (frame-ancestors *): it has no backend capability — no
// WebSocket, no runs — and only replays traces from URLs. nosniff stops browsers guessing content types;
// no-referrer keeps the page's URL (and its ?trace= links) out of requests to other sites.
import { posix } from 'node:path';

export interface HeaderOptions {
  /** CSP frame-ancestors sources besides 'self', as given to --frame-ancestors (e.g. https://docs.example.com). */
  frameAncestors: readonly string[];
}

/** A CSP source expression: *, a scheme (https:), or [scheme://][*.]host[:port]. Nothing that could end the header. */
const SOURCE = /^(\*|[a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?)$/i;

/**
 * Whether a request's path is the embed player's (/embed, /embed/…), read as the static file handler
 * reads it (decoded, then normalised), so /embed/../index.html is the app's page and stays unframeable.
 */
export function isEmbedPath(requestUrl: string | undefined): boolean {
  let pathname: string;
  try {
    pathname = posix.normalize(decodeURIComponent(new URL(requestUrl ?? '/', 'http://localhost').pathname));
  } catch {
    return false;
  }
  return pathname === '/embed' || pathname.startsWith('/embed/');
}

export function isFrameAncestorSource(source: string): boolean {
  return SOURCE.test(source);
}

/** The headers for a response to a request that named this Host (already checked); `embed`: the request was for the embed player (isEmbedPath). */
export function securityHeaders(options: HeaderOptions, host: string | undefined, embed = false): Record<string, string> {
  const ws = host && /^[a-z0-9.:[\]-]+$/i.test(host) ? ` ws://${host} wss://${host}` : '';
  const ancestors = embed ? '*' : options.frameAncestors.length ? `'self' ${options.frameAncestors.join(' ')}` : "'self'";
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self' https:${ws}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ].join('; ');
  return {
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
