// Watch it happen, cut short: a cancelled run keeps what it measured. Over the real WebSocket against a
// real redis-server, a long sequential run is cancelled mid-way: its events arrive, then 'cancelled'
// naming the run cut short; the events make a valid incomplete trace (v4) that round-trips through
// export and import; and the run's keys are gone all the same.
import { Redis } from 'ioredis';
import { expect, it } from 'vitest';
import { decodeBatch } from '../../../trace/protocol/live-protocol.ts';
import { TraceBuilder } from '../../../trace/format/trace-builder.ts';
import { parseTrace, serializeTrace } from '../../../trace/format/trace-io.ts';
import { LiveTestClient } from '../../test-support/live-test-client.ts';
import { usePrivateRedisApp } from '../../test-support/private-redis-session.ts';
import { keysLeftAfter } from '../../test-support/run-keys.ts';

const live = usePrivateRedisApp();

it('a cancelled run streams its events, then ends with cancelled naming the run; its partial trace is valid, and no key is left', async () => {
  const client = await new LiveTestClient(live.app.url).open();
  try {
    // 2 ms of added RTT: about 500 SETs a second, so 100,000 are far from done when the Cancel comes.
    client.send({ type: 'run', requestId: 'long', spec: { command: 'SET', n: 100_000, valueBytes: 8, modes: ['sequential'], rttMs: 2, repeats: 1, confirmLongRun: true } });
    const start = await client.next((m) => m.type === 'run-start');
    // Two batches of events: the run is well under way (the first flush may come before any reply).
    await client.next((m) => m.type === 'run-events' && client.messages.filter((e) => e.type === 'run-events').length >= 2);
    client.send({ type: 'cancel', requestId: 'long' });
    const end = await client.end('long');
    expect(end).toEqual({ type: 'cancelled', requestId: 'long', runId: start.type === 'run-start' ? start.run.id : '' });
    const ofRun = client.messages.filter((m) => 'requestId' in m && m.requestId === 'long');
    expect(ofRun.some((m) => m.type === 'run-end')).toBe(false);
    // Everything the client socket measured came before the end: build it as the browser does.
    const builder = new TraceBuilder(start as Extract<typeof start, { type: 'run-start' }>);
    for (const m of ofRun) if (m.type === 'run-events') builder.addBatch(decodeBatch(m));
    const doc = builder.partial({ reason: 'cancelled', omitted: ['redis-info'] });
    expect(doc.incomplete!.replied).toBeGreaterThan(0);
    expect(doc.incomplete!.replied).toBeLessThan(100_000);
    expect(doc.incomplete!.sent - doc.incomplete!.replied).toBeLessThanOrEqual(1); // sequential: one in flight at most
    expect(doc.commands.length).toBe(doc.incomplete!.replied);
    expect(doc.commands.every((c) => 'reply' in c && c.reply === 'OK')).toBe(true);
    const text = serializeTrace(doc);
    expect(serializeTrace(parseTrace(text))).toBe(text);

    const observer = new Redis({ host: live.redis.host, port: live.redis.port });
    try {
      expect(await keysLeftAfter(observer)).toEqual([]); // deleted in the background once 'cancelled' is sent
    } finally {
      observer.disconnect();
    }
  } finally {
    client.close();
  }
}, 60_000);

it('a request cancelled while still queued ends with cancelled and no run named', async () => {
  const busy = await new LiveTestClient(live.app.url).open();
  const queued = await new LiveTestClient(live.app.url).open();
  try {
    busy.send({ type: 'run', requestId: 'first', spec: { command: 'PING', n: 100_000, modes: ['sequential'], rttMs: 2, repeats: 1, confirmLongRun: true } });
    await busy.next((m) => m.type === 'run-start');
    queued.send({ type: 'run', requestId: 'second', spec: { command: 'PING', n: 10, modes: ['pipeline'] } });
    await queued.next((m) => m.type === 'queued' && m.position > 0);
    queued.send({ type: 'cancel', requestId: 'second' });
    expect(await queued.end('second')).toEqual({ type: 'cancelled', requestId: 'second' });
    busy.send({ type: 'cancel', requestId: 'first' });
    expect(await busy.end('first')).toMatchObject({ type: 'cancelled', runId: expect.any(String) });
  } finally {
    busy.close();
    queued.close();
  }
}, 60_000);
