// The embed player over real sockets: /embed/ serves the embed page (a folder with its own index.html),
// /embed is sent to /embed/ with its query, and the embed page may be framed by any site
// (frame-ancestors *) while the app itself keeps 'self' (and the --frame-ancestors sites). Needs the
// built app (npm run build:web): dist/web/embed/index.html and dist/web/pipescope-player.js.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './http-app.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';

let redis: PrivateRedis;
let app: RunningApp;

beforeAll(async () => {
  redis = await startPrivateRedis();
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}`, frameAncestors: ['https://docs.example.com'] });
});

afterAll(async () => {
  await app?.close();
  await redis?.stop();
});

function get(path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: new URL(app.url).port, path }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const csp = (headers: Record<string, unknown>) => String(headers['content-security-policy']);

describe('the embed player', () => {
  it('/embed/ serves the embed page, which any site may frame', async () => {
    const page = await get('/embed/?trace=run.json');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<title>Pipescope player</title>');
    expect(page.body).not.toContain('<div id="root">');
    expect(csp(page.headers)).toMatch(/frame-ancestors \*$/);
    // Still no inline script, and nosniff.
    expect(csp(page.headers)).toContain("script-src 'self';");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it('/embed goes to /embed/, keeping the query', async () => {
    const moved = await get('/embed?trace=run.json&theme=dark');
    expect(moved.status).toBe(301);
    expect(moved.headers['location']).toBe('/embed/?trace=run.json&theme=dark');
    expect(csp(moved.headers)).toMatch(/frame-ancestors \*$/);
  });

  it('the app keeps frame-ancestors \'self\' and the named sites, also when reached through /embed/..', async () => {
    for (const path of ['/', '/embed/%2e%2e/index.html', '/index.html']) {
      const page = await get(path);
      expect(page.status, path).toBe(200);
      expect(page.body, path).toContain('<div id="root">');
      expect(csp(page.headers), path).toMatch(/frame-ancestors 'self' https:\/\/docs\.example\.com$/);
    }
  });

  it('serves pipescope-player.js as a script', async () => {
    const script = await get('/pipescope-player.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain('pipescope-player');
  });

  it('a folder without its index is still 404, and no redirect leaves the host', async () => {
    expect((await get('/assets/')).status).toBe(404);
    const sneaky = await get('//embed');
    if (sneaky.status === 301) expect(String(sneaky.headers['location'])).toMatch(/^\/[^/]/);
  });
});
