// The delay proxy as a real TCP hop in front of a real redis-server: added RTT shows up in the
// measured times, bytes arrive complete and in order (jitter included), and sockets are closed.
import { connect as tcpConnect, createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DelayProxy, MAX_HELD_BYTES } from '../probes/delay-proxy.ts';
import { usePrivateRedisSession } from '../test-support/private-redis-session.ts';
import { executeRun } from './run-executor.ts';
import { RunCancelledError } from '../support/run-cancelled-error.ts';

const local = usePrivateRedisSession();

describe('runs through 50 ms of added RTT', () => {
  it('sequential: 10 PINGs take at least 10 × 50 ms', async () => {
    const doc = await executeRun(local.session, 'sequential', { command: 'PING', n: 10, valueBytes: 0, rttMs: 50 });
    expect(doc.totals.durationUs).toBeGreaterThanOrEqual(10 * 50_000);
    expect(doc.rtt).toMatchObject({ addedMs: 50, jitterMs: 0, samples: 3 });
    expect(doc.rtt.measuredMinUs).toBeGreaterThanOrEqual(50_000);
    for (const c of doc.commands) {
      expect(c.repliedUs - c.sentUs).toBeGreaterThanOrEqual(50_000);
      // Half the added RTT on each side of Redis, measured where the proxy hands over and receives.
      expect(c.toServerUs! - c.sentUs).toBeGreaterThanOrEqual(25_000);
      expect(c.repliedUs - c.fromServerUs!).toBeGreaterThanOrEqual(25_000);
      expect(c.fromServerUs!).toBeGreaterThanOrEqual(c.toServerUs!);
    }
    expect(doc.proxy!.toServer).toHaveLength(10);
    expect(doc.proxy!.fromServer).toHaveLength(10);
  });

  it('pipeline: one pipeline of 10 takes under 3 × 50 ms', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'PING', n: 10, valueBytes: 0, rttMs: 50 });
    expect(doc.totals.durationUs).toBeGreaterThanOrEqual(50_000);
    expect(doc.totals.durationUs).toBeLessThan(3 * 50_000);
  });

  it('100,000 pipelined INCRs arrive complete and in order', async () => {
    const doc = await executeRun(local.session, 'pipeline', { command: 'INCR', n: 100_000, valueBytes: 0, rttMs: 50, jitterMs: 20 });
    doc.commands.forEach((c, i) => {
      if (!('reply' in c) || c.reply !== i + 1) throw new Error(`command ${i} replied ${JSON.stringify(c)}`);
    });
  });

  it('a cancelled run through the proxy stops and leaves no socket open', async () => {
    const tcpHandles = () => process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP')).length;
    const handlesBefore = tcpHandles();
    const controller = new AbortController();
    const running = executeRun(local.session, 'sequential', { command: 'PING', n: 1000, valueBytes: 0, rttMs: 100 }, {
      onStart: () => setTimeout(() => controller.abort(), 300),
    }, controller.signal);
    const started = process.hrtime.bigint();
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    // 300 ms of running plus the clean-up; far from 1000 × 100 ms.
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5_000);
    for (let i = 0; i < 50 && tcpHandles() > handlesBefore; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tcpHandles()).toBeLessThanOrEqual(handlesBefore);
  });
});

describe('1 ms of added RTT is 1 ms per round trip, measured', () => {
  // Sequential PINGs through the proxy and straight to Redis, interleaved in pairs; for each pair the
  // median round trip of commands 1… (at the client socket) through the proxy less the direct one's.
  // The goal (npm run bench, added-delay) is ±5 % at a calm minute. On this shared machine any thread
  // can lose its CPU for a scheduler tick or more, which only ever adds time: the bound above is +25 %
  // (a median of pair medians, so it takes a loaded spell over most of the test to cross it), the bound
  // below stays −5 % (a delay shorter than asked would be the proxy's own error, its compensation for the
  // hop overdone).
  const PAIRS = 5;
  const PINGS = 41;
  const steady = (doc: Awaited<ReturnType<typeof executeRun>>) => median(doc.commands.slice(1).map((c) => c.repliedUs - c.sentUs));

  it('median over the round trips within −5 % … +25 % of 1 ms, and the label says what was measured', async () => {
    const added: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const direct = await executeRun(local.session, 'sequential', { command: 'PING', n: PINGS, valueBytes: 0 });
      const proxied = await executeRun(local.session, 'sequential', { command: 'PING', n: PINGS, valueBytes: 0, rttMs: 1 });
      added.push(steady(proxied) - steady(direct));
      // The label's own figures: what was asked, how, and the round trips measured before t0 beside direct ones.
      expect(proxied.rtt).toMatchObject({ addedMs: 1, mechanism: 'proxy', samples: 11 });
      expect(proxied.rtt.measuredP10Us!).toBeLessThanOrEqual(proxied.rtt.measuredMedianUs);
      expect(proxied.rtt.measuredP90Us!).toBeGreaterThanOrEqual(proxied.rtt.measuredMedianUs);
      expect(proxied.rtt.hopCompensationUs!).toBeGreaterThanOrEqual(0);
      expect(proxied.rtt.hopCompensationUs!).toBeLessThan(250); // the hop's own cost, not the delay
    }
    const addedUs = median(added);
    console.log(`added 1 ms: measured +${addedUs.toFixed(0)} µs per round trip (median of ${PAIRS} pairs: ${added.map((a) => a.toFixed(0)).join(', ')})`);
    expect(addedUs).toBeGreaterThanOrEqual(950);
    expect(addedUs).toBeLessThanOrEqual(1250);
  });
});

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

describe('the proxy on its own', () => {
  let echo: ReturnType<typeof createServer>;
  let echoPort = 0;

  beforeAll(async () => {
    echo = createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as { port: number }).port;
  });

  afterAll(() => new Promise((resolve) => echo.close(resolve)));

  it('jitter never reorders bytes', async () => {
    const proxy = await DelayProxy.start({ host: '127.0.0.1', port: echoPort }, { addedRttMs: 10, jitterMs: 40 });
    const client = tcpConnect(proxy.port, proxy.host);
    const sent: Buffer[] = [];
    for (let i = 0; i < 200; i++) sent.push(Buffer.from(`${i},`));
    const received: Buffer[] = [];
    const expected = Buffer.concat(sent).length;
    const done = new Promise<void>((resolve) => client.on('data', (chunk) => {
      received.push(chunk);
      if (Buffer.concat(received).length === expected) resolve();
    }));
    for (const chunk of sent) {
      client.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(Buffer.concat(received).toString()).toBe(Buffer.concat(sent).toString());
    client.destroy();
    await proxy.close();
  });

  it('holds a bounded number of bytes: a server that does not read pushes back on the client', async () => {
    const stalled: Socket[] = [];
    const sink = createServer((socket) => {
      socket.pause(); // reads nothing: what the client sends piles up in front of it
      stalled.push(socket);
    });
    await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
    const proxy = await DelayProxy.start({ host: '127.0.0.1', port: (sink.address() as { port: number }).port }, { addedRttMs: 2, jitterMs: 0 });
    const client = await new Promise<Socket>((resolve) => {
      const socket = tcpConnect(proxy.port, proxy.host, () => resolve(socket));
    });
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    let heldMost = 0;
    for (let i = 0; i < 4 * (MAX_HELD_BYTES / chunk.length); i++) {
      client.write(chunk);
      await new Promise((resolve) => setTimeout(resolve, 2));
      heldMost = Math.max(heldMost, proxy.heldBytes);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    heldMost = Math.max(heldMost, proxy.heldBytes);
    // Over the bound by at most what was already on its way when the client was paused.
    expect(heldMost).toBeGreaterThan(MAX_HELD_BYTES / 2);
    expect(heldMost).toBeLessThan(MAX_HELD_BYTES + 4 * chunk.length);
    // The rest waits at the client: it was paused, not dropped and not buffered in the proxy.
    expect(client.writableLength).toBeGreaterThan(MAX_HELD_BYTES);
    // Once the server reads again, everything goes through and the client's buffer drains.
    let received = 0;
    for (const socket of stalled) socket.on('data', (data: Buffer) => (received += data.length)).resume();
    const total = 4 * MAX_HELD_BYTES;
    for (let i = 0; i < 500 && received < total; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toBe(total);
    expect(proxy.heldBytes).toBe(0);
    client.destroy();
    await proxy.close();
    await new Promise((resolve) => sink.close(resolve));
  });

  it('closes both sides when either side closes', async () => {
    const proxy = await DelayProxy.start({ host: '127.0.0.1', port: echoPort }, { addedRttMs: 20, jitterMs: 0 });
    const client = await new Promise<Socket>((resolve) => {
      const socket = tcpConnect(proxy.port, proxy.host, () => resolve(socket));
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(proxy.openSockets).toBe(2);
    client.end();
    await new Promise((resolve) => client.once('close', resolve));
    for (let i = 0; i < 100 && proxy.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(proxy.openSockets).toBe(0);

    // And from the server side: an upstream that hangs up closes the client too.
    const hangUp = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const second = await DelayProxy.start({ host: '127.0.0.1', port: (hangUp.address() as { port: number }).port }, { addedRttMs: 20, jitterMs: 0 });
    const victim = tcpConnect(second.port, second.host);
    victim.on('data', () => {});
    await new Promise((resolve) => victim.once('close', resolve));
    for (let i = 0; i < 100 && second.openSockets > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(second.openSockets).toBe(0);
    await second.close();
    await new Promise((resolve) => hangUp.close(resolve));
    await proxy.close();
  });
});
