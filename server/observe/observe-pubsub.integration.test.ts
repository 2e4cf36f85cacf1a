// Frames that answer no command, through the observing port against a real Redis: pub/sub messages and
// the extra confirmations of a SUBSCRIBE of several channels (RESP2 arrays on a raw socket; RESP3 push
// frames from ioredis, which speaks RESP3), and MONITOR's lines. Each command still gets its own reply.
import { connect } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { ObservingPort } from './observing-port.ts';
import { PYTHON, runObserveClient } from './observe-clients.ts';
import { verifyTrace } from '../../trace/format/trace-io.ts';

let redis: PrivateRedis;
let admin: Redis;
let port: ObservingPort;

beforeAll(async () => {
  redis = await startPrivateRedis();
  admin = new Redis({ host: redis.host, port: redis.port });
  const target = targetFromUrl(`redis://${redis.host}:${redis.port}`, true);
  port = await ObservingPort.open(() => target, () => ({ version: '7', embedded: true, address: target.address }), {
    port: 0, recorder: { tool: 'pipescope', version: 'test', runtime: process.version },
  });
});

afterAll(async () => {
  await port?.close();
  admin?.disconnect();
  await redis?.stop();
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** Sends each request on a raw socket once the previous one's bytes came back (or after a pause). */
async function rawSession(requests: string[], whileOpen: () => Promise<void>): Promise<void> {
  const socket = connect(port.port, '127.0.0.1');
  socket.resume(); // what comes back is read (and dropped): the port records it
  await new Promise((resolve) => socket.once('connect', resolve));
  for (const request of requests) {
    socket.write(request);
    await settle();
  }
  await whileOpen();
  await settle();
  socket.end('*1\r\n$4\r\nQUIT\r\n');
  await new Promise((resolve) => socket.once('close', resolve));
}

describe('frames that answer no command', () => {
  it('RESP2: SUBSCRIBE of two channels is one reply and one unpaired confirmation; messages are unpaired; PING still pairs', async () => {
    port.restart();
    await rawSession(['*3\r\n$9\r\nSUBSCRIBE\r\n$1\r\na\r\n$1\r\nb\r\n', '*1\r\n$4\r\nPING\r\n'], async () => {
      await admin.publish('a', 'hello');
      await admin.publish('b', 'world');
    });
    const [doc] = port.restart().traces;
    expect(doc!.run.observed!.commands).toEqual(['SUBSCRIBE a b', 'PING', 'QUIT']);
    expect(doc!.incomplete).toBeNull();
    expect(doc!.commands.map((c) => ('reply' in c ? c.reply : c.error))).toEqual(['["subscribe","a",1]', '["pong",""]', 'OK']);
    expect(doc!.run.observed!.pushes.map((p) => p.text)).toEqual(['["subscribe","b",2]', '["message","a","hello"]', '["message","b","world"]']);
  });

  it('RESP3 (ioredis): subscribe confirmations and messages arrive as push frames', async () => {
    port.restart();
    const subscriber = new Redis({ host: '127.0.0.1', port: port.port });
    await subscriber.subscribe('c');
    await admin.publish('c', 'pushed');
    await settle();
    subscriber.disconnect();
    await settle();
    const [doc] = port.restart().traces;
    const observed = doc!.run.observed!;
    expect(observed.protocol).toBe(3);
    expect(observed.commands.at(-1)).toBe('SUBSCRIBE c');
    expect(observed.pushes.map((p) => p.text)).toContain('["message","c","pushed"]');
    // Every command has its reply: SUBSCRIBE's is its push confirmation.
    expect(doc!.commands).toHaveLength(doc!.run.n);
  });

  it("MONITOR's lines are unpaired, after its +OK", async () => {
    port.restart();
    await rawSession(['*1\r\n$7\r\nMONITOR\r\n'], async () => {
      await admin.set('pipescope:observe:monitored', '1');
      await admin.del('pipescope:observe:monitored');
    });
    const [doc] = port.restart().traces;
    expect(doc!.commands[0]).toMatchObject({ reply: 'OK' });
    expect(doc!.run.observed!.pushCount).toBeGreaterThanOrEqual(2);
    expect(doc!.run.observed!.pushes.map((p) => p.text).join('\n')).toContain('"set" "pipescope:observe:monitored" "1"');
  });

  it('MONITOR asked for: the trace gets Redis execution times, queued commands run at their EXEC', async () => {
    port.restart();
    await port.setMonitor(true, admin);
    try {
      await runObserveClient(PYTHON, 'redis-py-pipeline.py', `redis://127.0.0.1:${port.port}`, ['transaction', '5', 'pipescope:observe:monitored']);
      // MONITOR's output trails execution, more so on a busy machine: MULTI, 5 × INCRBY, EXEC.
      await expect.poll(() => port.current.recorderOf(1)?.record.monitor?.executions.length ?? 0, { timeout: 10_000 }).toBe(7);
    } finally {
      await port.setMonitor(false, admin);
      await admin.del('pipescope:observe:monitored');
    }
    const [doc] = port.restart().traces;
    expect(doc!.run.probes.monitor).toBe(true);
    expect(doc!.serverTrace!.clock.samples).toBeGreaterThan(0);
    const serverUs = doc!.commands.map((c) => c.serverUs);
    expect(serverUs.every((t) => typeof t === 'number')).toBe(true);
    // The five INCRBYs ran after QUEUED came back for them, by EXEC, before EXEC's reply (± the clock's uncertainty).
    const slack = doc!.serverTrace!.clock.uncertaintyUs + 1;
    for (const c of doc!.commands.slice(1, 6)) expect(c.serverUs!).toBeLessThanOrEqual(doc!.commands[6]!.repliedUs + slack);
    expect(verifyTrace(JSON.parse(JSON.stringify(doc)))).toEqual(doc);
  });
});
