// Links that show a run, on the backend, over real sockets against a real redis-server: each whole run of
// a request is kept and named by a run-stored message after the request is done; GET /stored-runs/<id>
// serves that run's trace (compact, gzip-encoded when accepted) exactly as the page built it from the
// wire; the Host and Origin checks hold; an id never kept, or a made-up one, gets a 404 that says why;
// a cancelled request keeps the runs finished before the cancel. (Bounds and eviction: recent-runs.test.ts.)
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument, tracesOf } from '../../../trace/format/sweep-io.ts';
import { serializeTrace } from '../../../trace/format/trace-io.ts';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { MAX_STORED_RUNS } from '../../../trace/protocol/stored-runs.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';
import { startApp, type RunningApp } from './http-app.ts';

let redis: PrivateRedis;
let app: RunningApp;
const logged: string[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis();
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://${redis.host}:${redis.port}` }, (line) => logged.push(line));
});

afterAll(async () => {
  await app?.close();
  await redis?.stop();
});

const port = () => new URL(app.url).port;
type Stored = Extract<ServerMessage, { type: 'run-stored' }>;

/** A request with the headers given (Host included, which fetch would not let us forge); the body as bytes. */
function get(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: port(), path, headers, method }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Runs a request to its end; the traces as the page built them and the ids of the runs kept. */
async function runAndKeep(spec: object, requestId: string): Promise<{ client: LiveTestClient; stored: Stored[] }> {
  const client = await new LiveTestClient(app.url).open();
  client.send({ type: 'run', requestId, spec });
  await client.end(requestId);
  const runs = client.messages.filter((m) => m.type === 'run-end' && m.requestId === requestId).length;
  // Kept after the request's end, one message per run.
  for (let i = 0; i < runs; i++) await client.next((m) => m.type === 'run-stored' && m.requestId === requestId && client.messages.filter((s) => s.type === 'run-stored' && s.requestId === requestId).length > i);
  return { client, stored: client.messages.filter((m): m is Stored => m.type === 'run-stored' && m.requestId === requestId) };
}

describe('runs kept for links', () => {
  it('keeps each run of a compare and serves it back as the page built it, after request-done', async () => {
    const { client, stored } = await runAndKeep({ command: 'INCR', n: 50, modes: ['sequential', 'pipeline'], repeats: 2 }, 'kept');
    const built = client.tracesFor('kept');
    expect(built).toHaveLength(4);
    expect(stored.map((s) => s.runId)).toEqual(built.map((d) => d.run.id));
    const done = client.messages.findIndex((m) => m.type === 'request-done');
    expect(client.messages.findIndex((m) => m.type === 'run-stored')).toBeGreaterThan(done);
    expect(new Set(stored.map((s) => s.storedId)).size).toBe(4);
    for (const [i, { storedId }] of stored.entries()) {
      expect(storedId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      const response = await get(`/stored-runs/${storedId}`, { host: `127.0.0.1:${port()}`, 'accept-encoding': 'gzip' });
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({ 'content-type': 'application/json; charset=utf-8', 'content-encoding': 'gzip', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      const text = gunzipSync(response.body).toString('utf8');
      expect(JSON.parse(text).format).toBe('pipescope-trace-columns');
      expect(serializeTrace(tracesOf(parseDocument(text))[0]!)).toBe(serializeTrace(built[i]!));
    }
    // Without Accept-Encoding: the same compact text, plain.
    const plain = await get(`/stored-runs/${stored[0]!.storedId}`, { host: `127.0.0.1:${port()}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(serializeTrace(tracesOf(parseDocument(plain.body.toString('utf8')))[0]!)).toBe(serializeTrace(built[0]!));
    client.close();
  });

  it('refuses a page of another origin and a forged Host, and a write; the app\'s own origin reads', async () => {
    const { client, stored } = await runAndKeep({ command: 'PING', n: 5, modes: ['pipeline'], repeats: 1 }, 'checks');
    const path = `/stored-runs/${stored[0]!.storedId}`;
    const own = `127.0.0.1:${port()}`;
    expect((await get(path, { host: own, origin: `http://${own}` })).status).toBe(200);
    const evil = await get(path, { host: own, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.body.toString()).toContain('A page from https://evil.example may not read the runs this Pipescope keeps');
    expect(logged.some((line) => line.includes('refused a stored run') && line.includes('https://evil.example'))).toBe(true);
    const rebound = await get(path, { host: `attacker.example:${port()}`, origin: `http://attacker.example:${port()}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body.toString()).toContain('Host "attacker.example" is not a name this Pipescope serves');
    expect((await get(path, { host: own }, 'DELETE')).status).toBe(405);
    expect((await get(path, { host: own })).status).toBe(200); // still there
    client.close();
  });

  it('answers an id not kept, or not an id at all, with a 404 that says how long runs are kept', async () => {
    for (const path of [`/stored-runs/${'A'.repeat(22)}`, '/stored-runs/../index.html', '/stored-runs/', '/stored-runs/x?y']) {
      const response = await get(path, { host: `127.0.0.1:${port()}` });
      expect(response.status, path).toBe(404);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.body.toString()).toBe(
        `No run with this id is kept here. This Pipescope keeps the last ${MAX_STORED_RUNS} runs it measured (at most 64 MiB) while it runs, ` +
          'and forgets them when it stops; a run that should last is exported (Export → Trace (JSON)).\n',
      );
    }
  });

  it('keeps the runs a cancel did not cut short, and not the one it did', async () => {
    const client = await new LiveTestClient(app.url).open();
    // Sequential runs against 2 ms of added delay: a few whole runs, then the cancel lands inside one.
    client.send({ type: 'run', requestId: 'cut', spec: { command: 'PING', n: 40, modes: ['sequential', 'pipeline'], repeats: 20, rttMs: 2 } });
    await client.next((m) => m.type === 'run-end' && m.requestId === 'cut' && client.messages.filter((e) => e.type === 'run-end').length >= 3);
    await client.next((m) => m.type === 'run-start' && client.messages.filter((e) => e.type === 'run-start').length >= 4);
    client.send({ type: 'cancel', requestId: 'cut' });
    await client.next((m) => m.type === 'cancelled');
    const whole = client.tracesFor('cut');
    await client.next((m) => m.type === 'run-stored' && m.runId === whole.at(-1)!.run.id);
    const stored = client.messages.filter((m): m is Stored => m.type === 'run-stored' && m.requestId === 'cut');
    expect(stored.map((s) => s.runId)).toEqual(whole.map((d) => d.run.id));
    const cut = client.messages.find((m) => m.type === 'cancelled');
    if (cut?.type === 'cancelled' && cut.runId) expect(stored.map((s) => s.runId)).not.toContain(cut.runId);
    client.close();
  });
});
