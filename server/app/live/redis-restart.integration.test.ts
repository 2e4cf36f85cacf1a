// Defect 6, as a browser sees it: the private redis-server is killed (kill -9); every open tab is told
// at once (redis-status: down, restarting; then up, "restarted …"), and the next run works. Before,
// every later run failed with "Connection is closed." until Pipescope was restarted.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../http/http-app.ts';
import { LiveClient } from '../../test-support/backend-process.ts';
import { LIVE_PATH } from '../../../trace/protocol/live-protocol.ts';

let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ port: 0, host: '127.0.0.1', redisUrl: undefined }, () => {});
});

afterAll(async () => {
  await app?.close();
});

it('kill -9 of the private redis-server: browsers are told, it restarts, the next run works', async () => {
  const wsUrl = app.url.replace(/^http/, 'ws').replace(/\/$/, LIVE_PATH);
  const client = await LiveClient.open(wsUrl);
  const pid = Number(/\(pid (\d+)\)/.exec(app.redisDescription)![1]);
  const killedAt = performance.now();
  process.kill(pid, 'SIGKILL');
  const down = await client.nextAt((m) => m.type === 'redis-status' && !m.redis.up, 0, 10_000);
  const up = await client.nextAt((m) => m.type === 'redis-status' && m.redis.up, down.index, 10_000);
  expect(down.message).toMatchObject({ redis: { up: false, embedded: true, message: expect.stringMatching(/^The private redis-server stopped at [\d:]+ \(killed by SIGKILL\); restarting it…$/) } });
  expect(up.message).toMatchObject({ redis: { up: true, message: expect.stringMatching(/^restarted at [\d:]+: .*; this is a fresh, empty one \(pid \d+\)$/) } });
  client.send({ type: 'run', requestId: 'after', spec: { command: 'SET', n: 1000, valueBytes: 16, modes: ['sequential', 'pipeline'] } });
  const done = await client.nextAt((m) => 'requestId' in m && m.requestId === 'after' && (m.type === 'request-done' || m.type === 'error'), 0, 30_000);
  expect(done.message.type).toBe('request-done');
  console.log(`private redis-server killed: browsers told after ${(down.at - killedAt).toFixed(0)} ms, back up after ${(up.at - killedAt).toFixed(0)} ms; the next run worked`);
  client.close();
}, 60_000);
