// The documented least-privilege ACL line, tried for real: the user is created on a private
// redis-server with exactly that line (read from docs/your-own-redis.md, so the two cannot drift apart), and
// Pipescope, given redis://pipescope:…@host:port, runs every mode, both engines, memory sampling,
// MONITOR, the delay proxy, a cancelled run's clean-up and the sweep with its redis-benchmark
// reference. Redis's ACL LOG then lists every command it refused: only redis-benchmark's CONFIG GET,
// which it does without (the page says so).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from './http/http-app.ts';
import { projectRoot } from '../support/project-root.ts';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { LiveTestClient } from '../test-support/live-test-client.ts';
import { keysLeftAfter } from '../test-support/run-keys.ts';

const PASSWORD = 'acl-test-password';
let redis: PrivateRedis;
let admin: Redis;
let app: RunningApp;

const ACL_PAGE = 'docs/your-own-redis.md';

/** The documented line, with the password it tells you to choose. */
function documentedAclLine(): string[] {
  const line = /^ACL SETUSER pipescope .*$/m.exec(readFileSync(join(projectRoot(), ACL_PAGE), 'utf8'))?.[0];
  if (!line) throw new Error(`${ACL_PAGE} has no "ACL SETUSER pipescope …" line`);
  return line.replace('>CHOOSE-A-PASSWORD', `>${PASSWORD}`).split(/\s+/).slice(2);
}

beforeAll(async () => {
  redis = await startPrivateRedis();
  admin = new Redis({ host: redis.host, port: redis.port });
  expect(await admin.call('ACL', 'SETUSER', ...documentedAclLine())).toBe('OK');
  await admin.call('ACL', 'LOG', 'RESET');
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://pipescope:${PASSWORD}@${redis.host}:${redis.port}` }, () => {});
});

afterAll(async () => {
  await app?.close();
  admin?.disconnect();
  await redis?.stop();
});

const REQUESTS: [string, unknown][] = [
  ['every mode, ioredis, memory sampled', { type: 'run', spec: { command: 'SET', n: 300, valueBytes: 16, modes: ['sequential', 'pipeline', 'chunked'], chunk: 100, repeats: 2 } }],
  ['GET (its value is SET first)', { type: 'run', spec: { command: 'GET', n: 50, modes: ['pipeline'], repeats: 1 } }],
  ['INCR on the raw engine', { type: 'run', spec: { command: 'INCR', n: 50, modes: ['sequential', 'pipeline'], engine: 'raw', repeats: 1 } }],
  ['MONITOR (Trace Redis side)', { type: 'run', spec: { command: 'PING', n: 20, modes: ['sequential', 'pipeline'], monitor: true, repeats: 1 } }],
  ['MONITOR on the raw engine', { type: 'run', spec: { command: 'INCR', n: 20, modes: ['pipeline'], engine: 'raw', monitor: true, repeats: 1 } }],
  ['added RTT (delay proxy), cold', { type: 'run', spec: { command: 'PING', n: 5, modes: ['sequential'], rttMs: 4, cold: true, repeats: 1 } }],
  ['depth sweep with the redis-benchmark reference', { type: 'sweep', spec: { command: 'SET', valueBytes: 8, depths: [1, 16], perPoint: 320, repeats: 1, reference: true } }],
  ['sweep of GET on the raw engine, with the reference', { type: 'sweep', spec: { command: 'GET', depths: [1, 4], perPoint: 40, repeats: 1, engine: 'raw', reference: true } }],
];

it('every feature works as the documented least-privilege user', async () => {
  const client = await new LiveTestClient(app.url).open();
  for (const [what, request] of REQUESTS) {
    client.send({ ...(request as object), requestId: what.replace(/\W+/g, '-').slice(0, 60) });
    const end = await client.end(what.replace(/\W+/g, '-').slice(0, 60));
    expect(end, what).toMatchObject({ type: 'request-done' });
  }
  const sweeps = client.messages.filter((m): m is Extract<ServerMessage, { type: 'sweep-end' }> => m.type === 'sweep-end');
  expect(sweeps.map((s) => [s.document.referenceMissing, s.document.reference?.points.length])).toEqual([[undefined, 2], [undefined, 2]]);
  client.close();
});

it('a cancelled run\'s clean-up (CLIENT LIST, EXISTS, UNLINK) works too, and leaves no key', async () => {
  const client = await new LiveTestClient(app.url).open();
  client.send({ type: 'run', requestId: 'big', spec: { command: 'SET', n: 1_000_000, valueBytes: 8, modes: ['sequential'], repeats: 1, memory: false, confirmLongRun: true } });
  await client.next((m) => m.type === 'run-events');
  client.send({ type: 'cancel', requestId: 'big' });
  expect(await client.end('big')).toMatchObject({ type: 'cancelled' });
  expect(await keysLeftAfter(admin)).toEqual([]); // deleted in the background once 'cancelled' is sent
  client.close();
});

it('Redis refused nothing but redis-benchmark\'s CONFIG GET', async () => {
  const log = (await admin.call('ACL', 'LOG')) as unknown[][];
  const refused = log.map((entry) => {
    const fields = new Map<string, unknown>();
    for (let i = 0; i < entry.length; i += 2) fields.set(String(entry[i]), entry[i + 1]);
    return `${String(fields.get('reason'))} ${String(fields.get('object'))}`;
  });
  expect(new Set(refused)).toEqual(new Set(refused.length ? ['command config|get'] : []));
});
