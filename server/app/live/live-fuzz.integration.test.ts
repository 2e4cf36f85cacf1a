// The live endpoint against ≥ 10,000 hostile messages (test-support/hostile-messages.ts): malformed,
// wrongly typed, out-of-range, oversized, binary, deeply nested, prototype tricks, odd text, stray
// cancels. The server must answer each one with exactly one clear error, never crash or close the
// connection, and run a normal request right after. Frames beyond the socket's limit and invalid UTF-8
// close that connection with the standard codes (1009, 1007), and the next connection works.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ServerMessage } from '../../../trace/protocol/live-protocol.ts';
import { startApp, type RunningApp } from '../http/http-app.ts';
import { MAX_FRAME_BYTES } from './live-connection.ts';
import { startPrivateRedis, type PrivateRedis } from '../../redis/private-redis-server.ts';
import { HOSTILE_KINDS, hostileMessages } from '../../test-support/hostile-messages.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';

const MESSAGES = 10_000;
const BATCH = 500;
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

const errors = (client: LiveTestClient) => client.messages.filter((m): m is Extract<ServerMessage, { type: 'error' }> => m.type === 'error');

it(`answers each of ${MESSAGES.toLocaleString('en-US')} hostile messages with one clear error, then runs a normal request`, async () => {
  const messages = hostileMessages(MESSAGES);
  expect(new Set(messages.map((m) => m.kind))).toEqual(new Set(HOSTILE_KINDS));
  const client = await new LiveTestClient(app.url).open();
  let answered = 0;
  let wake = () => {};
  client.socket.on('message', () => {
    answered++;
    wake();
  });
  const started = performance.now();
  for (let sent = 0; sent < messages.length; sent += BATCH) {
    for (const { data } of messages.slice(sent, sent + BATCH)) client.send(data);
    const expected = Math.min(sent + BATCH, messages.length);
    while (answered < expected && !client.closed) await new Promise<void>((resolve) => (wake = resolve));
  }
  const elapsedMs = performance.now() - started;
  const answers = errors(client);
  expect(answers).toHaveLength(MESSAGES);
  expect(client.closed).toBeUndefined();
  for (const { message } of answers) {
    expect(message.length).toBeGreaterThan(10);
    expect(message.length).toBeLessThan(600);
    expect(message).not.toMatch(/\[object |\n\s+at |internal error/);
  }
  const byKind = new Map<string, Set<string>>();
  messages.forEach((m, i) => byKind.set(m.kind, (byKind.get(m.kind) ?? new Set()).add(answers[i]!.message.replace(/\d[\d,]*/g, 'N').slice(0, 60))));
  expect([...byKind.get('binary')!]).toEqual(['Binary messages are not understood; send JSON text.']);
  expect([...byKind.get('oversized')!]).toEqual(['Message too large: N bytes; a message may be at most N KiB.']);
  console.log(`fuzz: ${MESSAGES} messages (${HOSTILE_KINDS.join(', ')}), ${answers.length} errors back, 0 crashes, ${(elapsedMs / 1000).toFixed(2)} s`);

  client.send({ type: 'run', requestId: 'after', spec: { command: 'INCR', n: 100, modes: ['sequential', 'pipeline'], repeats: 1 } });
  expect(await client.end('after')).toMatchObject({ type: 'request-done' });
  expect(logged.filter((line) => line.includes('could not be handled'))).toEqual([]);
  client.close();
});

it('a frame beyond the socket limit closes with 1009, invalid UTF-8 with 1007; the next connection runs', async () => {
  const huge = await new LiveTestClient(app.url).open();
  huge.send('x'.repeat(MAX_FRAME_BYTES + 1));
  expect((await huge.whenClosed()).code).toBe(1009);
  const garbled = await new LiveTestClient(app.url).open();
  garbled.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
  expect((await garbled.whenClosed()).code).toBe(1007);
  const next = await new LiveTestClient(app.url).open();
  next.send({ type: 'run', requestId: 'ok', spec: { command: 'PING', n: 10, modes: ['pipeline'], repeats: 1 } });
  expect(await next.end('ok')).toMatchObject({ type: 'request-done' });
  next.close();
});
