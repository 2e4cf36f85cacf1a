// A hostile client meets the observing port's limits and the backend stays up: junk bytes and an
// argument of 512 MB are refused (the connection closed, a note in the session, nothing forwarded),
// and 10,000 connections attempted at once get at most the port's limit through, the rest a clear
// refusal; an ordinary client is served right after.
import { connect, type Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRedis, type PrivateRedis } from '../redis/private-redis-server.ts';
import { targetFromUrl } from '../redis/redis-target.ts';
import { ObservingPort } from './observing-port.ts';

let redis: PrivateRedis;
let port: ObservingPort;

beforeAll(async () => {
  redis = await startPrivateRedis();
  const target = targetFromUrl(`redis://${redis.host}:${redis.port}`, true);
  port = await ObservingPort.open(() => target, () => ({ version: '7', embedded: true, address: target.address }), {
    port: 0, recorder: { tool: 'pipescope', version: 'test', runtime: process.version },
  });
});

afterAll(async () => {
  await port?.close();
  await redis?.stop();
});

/** Sends bytes and resolves with what came back before the port closed the connection. */
function sendAndWaitClose(bytes: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port.port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
    socket.on('connect', () => socket.write(bytes));
  });
}

async function ordinaryClientWorks(): Promise<void> {
  const client = new Redis({ host: '127.0.0.1', port: port.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  await client.connect();
  expect(await client.ping()).toBe('PONG');
  client.disconnect();
}

describe('a hostile client', () => {
  it('junk bytes: the connection is closed, the session notes why, nothing reached Redis', async () => {
    port.restart();
    await sendAndWaitClose(Buffer.concat([Buffer.from('*abc\r\n'), Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256))]));
    const summary = port.current.summary();
    expect(summary.connections[0]!.notes.join(' ')).toMatch(/closed by Pipescope: Protocol error: invalid multibulk length/);
    expect(summary.connections[0]!.commands).toBe(0);
    await ordinaryClientWorks();
  });

  it('binary junk without a newline: refused at 64 KiB like Redis does', async () => {
    port.restart();
    await sendAndWaitClose(Buffer.alloc(70 * 1024, 0xff));
    expect(port.current.summary().connections[0]!.notes.join(' ')).toMatch(/inline request longer than 64 KiB/);
    await ordinaryClientWorks();
  });

  it('a 512 MB bulk length: refused before a byte of it is forwarded', async () => {
    port.restart();
    await sendAndWaitClose(Buffer.from('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$536870912\r\nxxxx'));
    expect(port.current.summary().connections[0]!.notes.join(' ')).toMatch(/536,870,912 bytes is longer than the observing limit of 67,108,864 bytes/);
    await ordinaryClientWorks();
  });

  it('10,000 connections attempted: at most the open-connection limit at once, the rest refused with a reason', async () => {
    port.restart();
    const sockets: Socket[] = [];
    const refusals = new Set<string>();
    let closedByPort = 0;
    // Under load the kernel's listen backlog overflows too: such an attempt fails before the port sees it.
    let failedToConnect = 0;
    const attempts = 10_000;
    // In waves of 500, each wave's sockets kept open, so that the limit of 64 open connections is met.
    for (let wave = 0; wave < attempts / 500; wave++) {
      await Promise.all(Array.from({ length: 500 }, () => new Promise<void>((resolve) => {
        const socket = connect(port.port, '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        let connected = false;
        socket.on('error', () => {
          if (!connected) failedToConnect++;
          resolve();
        });
        socket.on('close', () => {
          if (text.startsWith('-ERR')) refusals.add(text.replace(/\d[\d,]*/g, 'N').trim());
          if (connected) closedByPort++;
          resolve();
        });
        socket.on('connect', () => {
          connected = true;
          sockets.push(socket);
          // An accepted one stays open; a refused one is closed by the port at once.
          setTimeout(resolve, 50);
        });
      })));
    }
    // Each attempt the port saw was relayed (at most 64 at once) or refused with the reason. On a busy machine the
    // kernel's accept queue overflows too: such an attempt may look connected to the client and never reach
    // the port (Linux drops the handshake's last ACK), so only the port's own counts are held to the limit.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const summary = port.current.summary();
    expect(summary.connections.length).toBeLessThanOrEqual(64);
    expect(summary.connections.length + summary.refused).toBeGreaterThan(attempts / 2);
    expect(closedByPort).toBeGreaterThan(summary.refused / 2);
    console.log(`10,000 attempts: ${summary.connections.length} relayed, ${summary.refused.toLocaleString('en-US')} refused by the port, ${failedToConnect.toLocaleString('en-US')} failed to connect`);
    expect([...refusals].join('\n')).toMatch(/connections are open through the observing port, the most it carries at once/);
    // One note for the kind, not 10,000.
    expect(summary.notes.length).toBeLessThan(5);
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 300));
    port.restart();
    await ordinaryClientWorks();
  }, 180_000);

  it('a client from another machine is not relayed, even on a port bound to every address, unless asked', async () => {
    const outside = Object.values(networkInterfaces()).flat().find((i) => i && !i.internal && i.family === 'IPv4')?.address;
    if (!outside) {
      console.log('no non-loopback IPv4 address on this machine: the refusal is covered by isLoopback alone');
      return;
    }
    const target = targetFromUrl(`redis://${redis.host}:${redis.port}`, true);
    const open = await ObservingPort.open(() => target, () => ({ version: '7', embedded: true, address: target.address }), {
      port: 0, host: '0.0.0.0', recorder: { tool: 'pipescope', version: 'test', runtime: process.version },
    });
    try {
      const closed = await new Promise<string>((resolve) => {
        const socket = connect(open.port, outside);
        let text = '';
        socket.on('data', (chunk) => (text += chunk.toString()));
        socket.on('error', () => resolve(text));
        socket.on('close', () => resolve(text));
        socket.on('connect', () => socket.write('*1\r\n$4\r\nPING\r\n'));
      });
      expect(closed).not.toContain('PONG');
      const summary = open.current.summary();
      expect(summary.connections).toHaveLength(0);
      expect(summary.notes.join(' ')).toMatch(/not a loopback client/);
    } finally {
      await open.close();
    }
  });
});
