// A long ioredis pipeline is built and encoded in slices, the event loop free in between (defect 5:
// a Cancel must be read within ~100 ms), but it is still one pipeline on the wire: the slices go to the
// kernel as one write when the socket is uncorked, byte for byte what one exec() would have written.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { Redis } from 'ioredis';
import { executeRun } from './run-executor.ts';

const local = usePrivateRedisSession();
let observer: Redis;

beforeAll(() => {
  observer = new Redis({ host: local.redis.host, port: local.redis.port });
});

afterAll(() => observer?.disconnect());

/** The longest the event loop went without running a 5 ms timer while `work` ran, ms. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return longest;
}

it('a pipeline of 30,000 SETs in slices is one write, the same bytes as one exec()', async () => {
  const spec = { command: 'SET' as const, n: 30_000, valueBytes: 16, memory: false };
  const sliced = await executeRun(local.session, 'pipeline', spec);
  const whole = await executeRun(local.session, 'pipeline', { ...spec, pipelineSlice: Infinity });
  for (const doc of [sliced, whole]) {
    expect(doc.counts.client.writes).toBe(1);
    expect(doc.writes[0]!.commands).toBe(30_000);
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
  }
  expect(sliced.counts.client.bytesOut).toBe(whole.counts.client.bytesOut);
  expect(sliced.counts.client.bytesIn).toBe(whole.counts.client.bytesIn);
  expect(await observer.keys('pipescope:*')).toEqual([]);
});

it('chunks longer than a slice are each one write too', async () => {
  const doc = await executeRun(local.session, 'chunked', { command: 'INCR', n: 60_000, valueBytes: 0, chunk: 25_000, memory: false });
  expect(doc.writes.map((w) => w.commands)).toEqual([25_000, 25_000, 10_000]);
  expect(doc.commands.at(-1)).toMatchObject({ reply: 60_000 });
});

it('the raw engine encodes its batch in slices before t0; the pipeline is still one write', async () => {
  const doc = await executeRun(local.session, 'pipeline', { command: 'SET', n: 50_000, valueBytes: 16, engine: 'raw', memory: false });
  expect(doc.counts.client.writes).toBe(1);
  expect(doc.commands).toHaveLength(50_000);
});

it('the event loop is free while a 200,000-SET pipeline is built (it was held for the whole build)', async () => {
  const spec = { command: 'SET' as const, n: 200_000, valueBytes: 64, memory: false };
  const sliced = await longestStall(() => executeRun(local.session, 'pipeline', spec));
  const whole = await longestStall(() => executeRun(local.session, 'pipeline', { ...spec, pipelineSlice: Infinity }));
  console.log(`longest event-loop stall during a 200,000-SET pipeline run: ${sliced.toFixed(0)} ms sliced, ${whole.toFixed(0)} ms in one exec()`);
  expect(sliced).toBeLessThan(whole / 2);
}, 120_000);
