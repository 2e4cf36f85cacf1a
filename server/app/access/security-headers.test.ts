// The headers every response carries, and which framing sources the flag accepts.
import { describe, expect, it } from 'vitest';
import { isEmbedPath, isFrameAncestorSource, securityHeaders } from './security-headers.ts';

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

  it('lets any site frame the embed player, and only it', () => {
    expect(securityHeaders({ frameAncestors: ['https://docs.example.com'] }, undefined, true)['content-security-policy']).toMatch(/frame-ancestors \*$/);
    expect(securityHeaders({ frameAncestors: [] }, undefined, false)['content-security-policy']).toMatch(/frame-ancestors 'self'$/);
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

describe('isEmbedPath', () => {
  it.each(['/embed', '/embed/', '/embed/?trace=a.json', '/embed/index.html', '/embed//x', '/%65mbed/'])('%s is the embed player', (path) => {
    expect(isEmbedPath(path)).toBe(true);
  });
  it.each(['/', '/index.html', '/embedded', '/embed/../index.html', '/embed/%2e%2e/index.html', '/embed/..%2Findex.html', '/x/embed/', '/%E0%A4%A', undefined])('%s is not', (path) => {
    expect(isEmbedPath(path)).toBe(false);
  });
});
