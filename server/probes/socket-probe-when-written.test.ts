// SocketProbe.whenWritten, on a real loopback socket (no Redis: only what the client writes matters):
// the held-connection PING is issued on the tick after the write that completes the run's commands,
// and, on a corked socket, what it writes then goes after everything corked before it.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunClock } from '../support/monotonic-clock.ts';
import { SocketProbe } from './socket-probe.ts';

const PING = '*1\r\n$4\r\nPING\r\n';
let server: Server;
let socket: Socket;
let received: Promise<string>;

beforeEach(async () => {
  let resolveReceived: (text: string) => void = () => {};
  received = new Promise((resolve) => (resolveReceived = resolve));
  server = createServer((peer) => {
    let text = '';
    peer.on('data', (chunk) => (text += chunk.toString()));
    peer.on('end', () => resolveReceived(text));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  socket = connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
});

afterEach(async () => {
  socket.destroy();
  await new Promise((resolve) => server.close(resolve));
});

describe('SocketProbe.whenWritten', () => {
  it('calls back once, on the tick after the write that brings the commands written to the count', async () => {
    const probe = new SocketProbe(socket, new RunClock());
    const calls: string[] = [];
    probe.whenWritten(3, () => calls.push('called'));
    socket.write(PING + PING);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([]);
    socket.write(PING);
    expect(calls).toEqual([]); // not inside the write: the client library has not finished its call
    await new Promise((resolve) => process.nextTick(resolve));
    expect(calls).toEqual(['called']);
    socket.write(PING);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(['called']);
    probe.detach();
  });

  it('on a corked socket, a write from the callback goes after the corked commands', async () => {
    const probe = new SocketProbe(socket, new RunClock());
    probe.whenWritten(2, () => socket.write('PING\r\n'));
    socket.cork();
    socket.write(PING);
    socket.write('*2\r\n$4\r\nINCR\r\n$1\r\nk\r\n');
    await new Promise((resolve) => setImmediate(resolve));
    socket.uncork();
    socket.end();
    expect(await received).toBe(`${PING}*2\r\n$4\r\nINCR\r\n$1\r\nk\r\nPING\r\n`);
    expect(probe.take().writes.map((w) => w.commands)).toEqual([3]); // one write at uncork, the PING included
    probe.detach();
  });
});
