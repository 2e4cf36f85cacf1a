// Defect 5: Cancel stops any run within ~100 ms of the message, deletes its keys and reports it as
// cancelled, including one big pipeline (1,000,000 SETs of 268 B: building and encoding it used to
// hold the backend's event loop for 7-27 s, so the Cancel was not even read, and the run ended as
// done). The backend runs as its own process (built), so its event loop is not the test's; the time
// is from the Cancel leaving the test to 'cancelled' arriving. Bounds asserted, for a noisy two-core
// machine where other tests run at the same time: the median of the trials within 300 ms, and every
// trial within 1 s (it was 15 s after a 31 s wait for the Cancel to be read). Measured here: medians
// 29-76 ms, the slowest trial 236 ms.
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer, LiveClient, median, startBackend, type Backend } from '../../test-support/backend-process.ts';
import { keysLeftAfter } from '../../test-support/run-keys.ts';

const MEDIAN_BOUND_MS = 300;
const TRIAL_BOUND_MS = 1_000;
const TRIALS = 5;

let backend: Backend;
let observer: Redis;

beforeAll(async () => {
  expect(buildServer()).toBe('');
  backend = await startBackend();
  observer = new Redis({ ...backend.redisAddress!, lazyConnect: true });
  await observer.connect();
}, 180_000);

afterAll(async () => {
  observer?.disconnect();
  await backend?.stop();
});

/** The run's keys, once its background clean-up has had up to 5 s (the answer to a Cancel does not wait for it). */
async function runKeys(): Promise<string[]> {
  return keysLeftAfter(observer);
}

it(`cancel during a 1,000,000-SET pipeline: 'cancelled' within ${MEDIAN_BOUND_MS} ms (median), keys gone, Redis up`, async () => {
  const client = await LiveClient.open(backend.wsUrl);
  const latencies: number[] = [];
  try {
    for (let trial = 0; trial < TRIALS; trial++) {
      const requestId = `big-${trial}`;
      client.send({ type: 'run', requestId, spec: { command: 'SET', n: 1_000_000, valueBytes: 268, modes: ['pipeline'] } });
      // run-start comes right before t0: the run is building its pipeline now (its first events come once
      // it is written: a quiet 50 ms sends no frame). Cancel a little later each trial.
      const started = await client.nextAt((m) => m.type === 'run-start' && m.requestId === requestId);
      await new Promise((resolve) => setTimeout(resolve, 100 + trial * 150));
      const sentAt = client.send({ type: 'cancel', requestId });
      const end = await client.nextAt((m) => 'requestId' in m && m.requestId === requestId && (m.type === 'cancelled' || m.type === 'request-done' || m.type === 'error'), started.index);
      expect(end.message.type).toBe('cancelled');
      latencies.push(end.at - sentAt);
      expect(await runKeys()).toEqual([]);
      expect(await observer.ping()).toBe('PONG');
    }
  } finally {
    client.close();
  }
  console.log(`cancel → 'cancelled' during a 1,000,000-SET pipeline: ${latencies.map((ms) => ms.toFixed(0)).join(', ')} ms (median ${median(latencies).toFixed(0)} ms)`);
  expect(median(latencies)).toBeLessThanOrEqual(MEDIAN_BOUND_MS);
  for (const ms of latencies) expect(ms).toBeLessThanOrEqual(TRIAL_BOUND_MS);

  // And the backend carries on: the next run completes.
  const next = await LiveClient.open(backend.wsUrl);
  next.send({ type: 'run', requestId: 'after', spec: { command: 'SET', n: 100, valueBytes: 16, modes: ['pipeline'] } });
  expect((await next.next((m) => 'requestId' in m && (m.type === 'request-done' || m.type === 'error'))).type).toBe('request-done');
  next.close();
}, 180_000);
