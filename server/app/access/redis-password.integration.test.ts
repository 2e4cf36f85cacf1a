// A Redis with a password, end to end: every mode and the depth sweep with the redis-benchmark
// reference work, redis-benchmark never sees the password on its command line (it signs in through
// the auth relay), and no message the browser gets — nor any log line, nor anything relayed to a follower
// of a presenter — holds the password in any form.
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';

const PASSWORD = 'Pipe$ecret@word:7';
const FORMS = [PASSWORD, encodeURIComponent(PASSWORD), 'ecret@word', 'ecret%40word'];

let redis: PrivateRedis;
let app: RunningApp;
const logs: string[] = [];
const dir = mkdtempSync(join(tmpdir(), 'pipescope-password-test-'));
const argvLog = join(dir, 'argv.log');

beforeAll(async () => {
  redis = await startPrivateRedis();
  const admin = new Redis({ host: redis.host, port: redis.port });
  await admin.config('SET', 'requirepass', PASSWORD);
  admin.disconnect();
  // redis-benchmark, wrapped to write down each command line it is given.
  const wrapper = join(dir, 'redis-benchmark');
  writeFileSync(wrapper, `#!/bin/sh
printf '%s\\n' "$*" >> "${argvLog}"
if [ -n "$PIPESCOPE_TEST_FAIL" ] && [ "$1" != --version ]; then echo "Error: Connection reset by peer" >&2; exit 1; fi
exec redis-benchmark "$@"
`);
  chmodSync(wrapper, 0o755);
  process.env['REDIS_BENCHMARK'] = wrapper;
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://:${encodeURIComponent(PASSWORD)}@${redis.host}:${redis.port}` }, (line) => logs.push(line));
});

afterAll(async () => {
  delete process.env['REDIS_BENCHMARK'];
  delete process.env['PIPESCOPE_TEST_FAIL'];
  await app?.close();
  await redis?.stop();
});

const expectNoPassword = (texts: string[]) => {
  for (const text of texts) for (const form of FORMS) expect(text).not.toContain(form);
};

it('every mode runs, and the sweep\'s redis-benchmark reference too, with no password on its command line', async () => {
  const client = await new LiveTestClient(app.url).open();
  client.send({ type: 'run', requestId: 'modes', spec: { command: 'SET', n: 300, valueBytes: 8, modes: ['sequential', 'pipeline', 'chunked'], chunk: 100, repeats: 1 } });
  expect((await client.end('modes')).type).toBe('request-done');
  client.send({ type: 'run', requestId: 'raw', spec: { command: 'PING', n: 20, modes: ['pipeline'], engine: 'raw', monitor: true, repeats: 1 } });
  expect((await client.end('raw')).type).toBe('request-done');
  client.send({ type: 'sweep', requestId: 'sweep', spec: { command: 'INCR', depths: [1, 8], perPoint: 400, repeats: 1, reference: true } });
  expect((await client.end('sweep')).type).toBe('request-done');
  const end = client.messages.find((m): m is Extract<ServerMessage, { type: 'sweep-end' }> => m.type === 'sweep-end')!;
  expect(end.document.referenceMissing).toBeUndefined();
  expect(end.document.reference?.points.map((p) => p.depth)).toEqual([1, 8]);
  expect(end.document.reference?.args.slice(0, 2)).toEqual(['-s', '<auth relay>']);
  const commandLines = readFileSync(argvLog, 'utf8').trim().split('\n');
  expect(commandLines.length).toBeGreaterThan(2); // --version, then the runs
  expectNoPassword(commandLines);
  expect(commandLines.some((line) => / -a | --user | --pass /.test(` ${line} `))).toBe(false);
  expectNoPassword(client.raw);
  expectNoPassword(logs);
  client.close();
});

it('a follower of a presenter gets the presenter\'s runs (MONITOR lines included) and nothing of the password', async () => {
  const lead = await new LiveTestClient(app.url).open();
  lead.send({ type: 'follow-start' });
  const { code } = await lead.next((m): m is Extract<ServerMessage, { type: 'follow-started' }> => m.type === 'follow-started');
  const follower = await new LiveTestClient(app.url).open();
  follower.send({ type: 'follow-join', code });
  await follower.next((m) => m.type === 'follow-joined');
  lead.send({ type: 'run', requestId: 'shared', spec: { command: 'PING', n: 20, modes: ['pipeline'], engine: 'raw', monitor: true, repeats: 1 } });
  expect((await lead.end('shared')).type).toBe('request-done');
  expect((await follower.end('shared')).type).toBe('request-done');
  expect(follower.tracesFor('shared')).toEqual(lead.tracesFor('shared'));
  expectNoPassword(follower.raw);
  lead.close();
  follower.close();
});

it('a failing redis-benchmark is reported by what it printed, never by its command line', async () => {
  process.env['PIPESCOPE_TEST_FAIL'] = '1';
  try {
    const client = await new LiveTestClient(app.url).open();
    client.send({ type: 'sweep', requestId: 'fails', spec: { command: 'PING', depths: [1], perPoint: 100, repeats: 1, reference: true } });
    const error = await client.end('fails');
    expect(error).toMatchObject({ type: 'error', message: 'Sweep failed: redis-benchmark failed (exit code 1): Error: Connection reset by peer' });
    expectNoPassword(client.raw);
    client.close();
  } finally {
    delete process.env['PIPESCOPE_TEST_FAIL'];
  }
});

it('a wrong password is refused at start-up with a message that holds no part of it', async () => {
  const wrong = 'Wr0ng@pass:word';
  const failure = await startApp({ port: 0, host: '127.0.0.1', redisUrl: `redis://:${encodeURIComponent(wrong)}@${redis.host}:${redis.port}` }).then(
    (unexpected) => unexpected.close().then(() => 'started'),
    (error: Error) => error.message,
  );
  expect(failure).toContain(`redis://***@${redis.host}:${redis.port}`);
  for (const form of [wrong, encodeURIComponent(wrong), 'pass:word', 'pass%3Aword']) expect(failure).not.toContain(form);
});
