// The neighbour client and the held-connection probe over the live WebSocket, as the browser gets them:
// run-end carries both, and the trace the browser builds from the wire holds them, verifies and
// round-trips, with the verdicts computed from it.
import { expect, it } from 'vitest';
import { heldConnectionVerdict, neighborInsideRun } from '../../../trace/derive/neighbor-verdicts.ts';
import { serializeTrace, verifyTrace } from '../../../trace/format/trace-io.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';
import { usePrivateRedisApp } from '../../test-support/private-redis-session.ts';

const live = usePrivateRedisApp();

it('a run with a neighbour and the held-connection probe arrives whole: both in run-end and in the trace built from the wire', async () => {
  const client = await new LiveTestClient(live.app.url).open();
  client.send({
    type: 'run', requestId: 'nb',
    spec: { command: 'INCR', n: 5_000, modes: ['pipeline'], repeats: 1, monitor: true, memory: false, neighborRate: 1_000, neighborCommand: 'GET', heldConnection: true },
  });
  await client.next((m) => m.type === 'request-done');
  const [doc] = client.tracesFor('nb');
  expect(serializeTrace(verifyTrace(JSON.parse(serializeTrace(doc!))))).toBe(serializeTrace(doc!));
  expect(doc!.run.n).toBe(5_001);
  expect(doc!.neighbor!.commands.length).toBeGreaterThan(0);
  expect(neighborInsideRun(doc!)).not.toBeNull();
  const held = heldConnectionVerdict(doc!)!;
  expect(held.sameWaitUs).toBeGreaterThan(0);
  expect(held.otherWaitUs).toBeGreaterThan(0);
  client.close();
}, 60_000);
