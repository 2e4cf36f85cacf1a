// Headers on every HTTP response, errors and 304s included. The Content-Security-Policy allows only
// our own scripts (index.html has no inline script: its prefetch is public/prefetch.js), our own
// styles (React and D3 set style properties through the CSSOM, which CSP does not restrict), traces
// fetched from here or any https: site (?trace= links), and the live WebSocket back to this host.
// frame-ancestors decides who may frame the app: by default only itself, because the live app starts
// runs against your Redis and a framing page could trick clicks on it (clickjacking); a docs author who
// embeds it names the docs site with --frame-ancestors. nosniff stops browsers guessing content types;
// no-referrer keeps the page's URL (and its ?trace= links) out of requests to other sites.

export interface HeaderOptions {
  /** CSP frame-ancestors sources besides 'self', as given to --frame-ancestors (e.g. https://docs.example.com). */
  frameAncestors: readonly string[];
}

/** A CSP source expression: *, a scheme (https:), or [scheme://][*.]host[:port]. Nothing that could end the header. */
const SOURCE = /^(\*|[a-z][a-z0-9+.-]*:|([a-z][a-z0-9+.-]*:\/\/)?(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*(:(\d{1,5}|\*))?)$/i;

export function isFrameAncestorSource(source: string): boolean {
  return SOURCE.test(source);
}

/** The headers for a response to a request that named this Host (already checked). */
export function securityHeaders(options: HeaderOptions, host: string | undefined): Record<string, string> {
  const ws = host && /^[a-z0-9.:[\]-]+$/i.test(host) ? ` ws://${host} wss://${host}` : '';
  const ancestors = options.frameAncestors.length ? `'self' ${options.frameAncestors.join(' ')}` : "'self'";
  const csp = [
    "default-src 'self'",
    "script-src 'self'",
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
