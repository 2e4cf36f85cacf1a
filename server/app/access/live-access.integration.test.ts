// Who may use the app, over real sockets: a page from another origin cannot open /live (cross-site
// WebSocket hijacking), a forged Host is refused on HTTP and WebSocket alike (DNS rebinding), the app's
// own origin and an --allow-origin site work; and every response carries the security headers, the
// 400 and 431 Node would send for a request it cannot parse included.
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../http/http-app.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { LiveTestClient, refusedUpgrade } from '../../test-support/live-test-client.ts';

let redis: PrivateRedis;
let app: RunningApp;
const logged: string[] = [];
const EMBEDDER = 'https://docs.example.com';

beforeAll(async () => {
  redis = await startPrivateRedis();
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}`, allowOrigins: [EMBEDDER] }, (line) => logged.push(line));
});

afterAll(async () => {
  await app?.close();
  await redis?.stop();
});

const origin = () => app.url.replace(/\/$/, '');
const port = () => new URL(app.url).port;

/** A GET with the headers given (Host included, which fetch would not let us forge). */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: port(), path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the live WebSocket', () => {
  it('refuses a page from another origin with 403 and the reason, and logs it', async () => {
    const refused = await refusedUpgrade(app.url, { origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('A page from https://evil.example may not open Pipescope\'s live connection');
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    expect(logged.some((line) => line.includes('refused a live connection') && line.includes('https://evil.example'))).toBe(true);
  });

  it('refuses a forged Host (DNS rebinding) even from that host\'s own origin', async () => {
    const forged = `attacker.example:${port()}`;
    const refused = await refusedUpgrade(app.url, { headers: { host: forged }, origin: `http://${forged}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Host "attacker.example" is not a name this Pipescope serves');
  });

  it('refuses "null" origins (sandboxed frames, file:// pages) and other ports of this host', async () => {
    expect((await refusedUpgrade(app.url, { origin: 'null' })).status).toBe(403);
    expect((await refusedUpgrade(app.url, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
  });

  it('accepts the app\'s own origin, by address and by localhost, and a run works', async () => {
    const own = await new LiveTestClient(app.url, { origin: origin() }).open();
    own.send({ type: 'run', requestId: 'own', spec: { command: 'PING', n: 5, modes: ['pipeline'], repeats: 1 } });
    expect((await own.end('own')).type).toBe('request-done');
    own.close();
    const byName = await new LiveTestClient(app.url.replace('127.0.0.1', 'localhost'), { origin: `http://localhost:${port()}` }).open();
    byName.close();
  });

  it('accepts an origin allowed with --allow-origin', async () => {
    const embedded = await new LiveTestClient(app.url, { origin: EMBEDDER }).open();
    embedded.close();
  });

  it('answers 404 for WebSocket upgrades anywhere but /live', async () => {
    const { status } = await new Promise<{ status: number }>((resolve) => {
      const req = request({ host: '127.0.0.1', port: port(), path: '/elsewhere', headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' } });
      req.on('response', (response) => resolve({ status: response.statusCode ?? 0 }));
      req.end();
    });
    expect(status).toBe(404);
  });
});

describe('HTTP', () => {
  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(csp).toContain("frame-ancestors 'self'");
  };

  it('a forged Host gets 403 with the reason', async () => {
    const response = await get('/', { host: `rebound.example:${port()}` });
    expect(response.status).toBe(403);
    expect(response.body).toContain('Host "rebound.example" is not a name this Pipescope serves');
    expectSecurityHeaders(response.headers);
  });

  it('200, 304 and 404 all carry nosniff, the CSP and the Referrer-Policy', async () => {
    const page = await get('/');
    expect(page.status).toBe(200);
    expectSecurityHeaders(page.headers);
    expect(page.body).not.toMatch(/<script>/); // no inline script: the CSP would block it
    expect(page.body).toContain('<script src="./prefetch.js"></script>'); // relative (vite base './'): works from any sub-path
    const again = await get('/', { 'if-none-match': String(page.headers['etag']) });
    expect(again.status).toBe(304);
    expectSecurityHeaders(again.headers);
    const missing = await get('/no-such-file.js');
    expect(missing.status).toBe(404);
    expectSecurityHeaders(missing.headers);
    const script = await get('/prefetch.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
  });

  it('--frame-ancestors names the embedding site in the CSP', async () => {
    const framed = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}`, frameAncestors: [EMBEDDER] });
    try {
      const response = await fetch(framed.url);
      expect(response.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${EMBEDDER}`);
    } finally {
      await framed.close();
    }
  });
});

describe('requests Node cannot parse', () => {
  /** Raw bytes to the server; resolves with everything it answered before closing. */
  function raw(bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port()) }, () => socket.write(bytes));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
  }

  it.each([
    ['a malformed request line', 400, 'GARBAGE\r\n\r\n'],
    ['headers over 16 KiB', 431, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'x'.repeat(20_000)}\r\n\r\n`],
  ] as const)('%s gets %i with the security headers and a reason', async (_what, status, bytes) => {
    const answer = await raw(bytes);
    expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    const head = answer.slice(0, answer.indexOf('\r\n\r\n')).toLowerCase();
    expect(head).toContain('content-security-policy: default-src \'self\'');
    expect(head).toContain('x-content-type-options: nosniff');
    expect(head).toContain('referrer-policy: no-referrer');
    expect(head).toContain('connection: close');
    expect(answer.slice(answer.indexOf('\r\n\r\n') + 4)).toMatch(/^(Bad Request|Request Header Fields Too Large): /);
  });
});
