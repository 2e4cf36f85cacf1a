// The headers every response carries, and which framing sources the flag accepts.
import { describe, expect, it } from 'vitest';
import { isFrameAncestorSource, securityHeaders } from './security-headers.ts';

describe('securityHeaders', () => {
  it('a CSP with no inline script, the live WebSocket to this host, and framing by the app itself only', () => {
    const headers = securityHeaders({ frameAncestors: [] }, '127.0.0.1:7380');
    const csp = headers['content-security-policy']!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("connect-src 'self' https: ws://127.0.0.1:7380 wss://127.0.0.1:7380");
    expect(csp).toMatch(/frame-ancestors 'self'$/);
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' });
  });

  it('names the sites given by --frame-ancestors', () => {
    expect(securityHeaders({ frameAncestors: ['https://docs.example.com'] }, undefined)['content-security-policy']).toMatch(/frame-ancestors 'self' https:\/\/docs\.example\.com$/);
  });

  it('leaves out a Host that is not plainly host:port', () => {
    expect(securityHeaders({ frameAncestors: [] }, "x; script-src 'unsafe-inline'")['content-security-policy']).toContain("connect-src 'self' https:;");
  });
});

describe('isFrameAncestorSource', () => {
  it.each(['*', 'https:', 'https://docs.example.com', 'https://docs.example.com:8443', '*.example.com', 'http://localhost:*'])('accepts %s', (source) => {
    expect(isFrameAncestorSource(source)).toBe(true);
  });
  it.each(["'unsafe-inline'", 'https://a.example; script-src *', 'https://a.example/path', 'a b', ''])('refuses %j', (source) => {
    expect(isFrameAncestorSource(source)).toBe(false);
  });
});
